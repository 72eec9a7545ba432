"""Company names across languages and spellings: one key per company, shown in the user's language."""

from __future__ import annotations

from bot.features.review.companies import KNOWN, company_key, company_name

REQUIRED = [  # issue #18: each group must fold to one company
    ["ByteDance", "字节跳动", "字节", "bytedance", "Bytedance Inc.", "字节跳动有限公司"],
    ["Alibaba", "阿里巴巴", "阿里"],
    ["Tencent", "腾讯"],
    ["Baidu", "百度"],
    ["Meituan", "美团"],
    ["Kuaishou", "快手"],
    ["JD", "京东", "JD.com"],
    ["Huawei", "华为"],
    ["Xiaohongshu", "小红书"],
    ["Moonshot", "月之暗面", "Moonshot AI"],
    ["Zhipu", "智谱", "Zhipu AI"],
    ["DeepSeek", "深度求索"],
    ["MiniMax", "minimax"],
    ["Baichuan", "百川"],
    ["01.AI", "零一万物", "01 AI"],
    ["Google", "谷歌"],
    ["Microsoft", "微软"],
    ["Meta", "Facebook"],
    ["OpenAI", "openai"],
    ["Anthropic", "anthropic"],
    ["NVIDIA", "英伟达", "Nvidia"],
    ["Amazon", "亚马逊"],
    ["Apple", "苹果", "Apple Inc."],
]


def test_each_company_folds_to_one_key_in_both_languages() -> None:
    keys = []
    for names in REQUIRED:
        group = {company_key(n) for n in names}
        assert len(group) == 1 and next(iter(group)).startswith("known:"), names
        keys.append(group.pop())
    assert len(set(keys)) == len(REQUIRED)  # and no two companies share one


def test_no_spelling_names_two_companies() -> None:
    owner: dict[str, str] = {}
    for en, zh, others in KNOWN:
        for alias in (en, zh, *others):
            key = company_key(alias)
            assert owner.setdefault(key, en) == en, (alias, owner[key], en)


def test_a_known_company_is_shown_in_the_users_language_and_any_other_as_typed() -> None:
    assert company_name("bytedance", "zh") == "字节跳动" and company_name("字节", "en") == "ByteDance"
    assert company_name(" Acme Robotics ", "zh") == "Acme Robotics"
    # an unknown name still merges across case, spacing and a legal suffix, but not with a different name
    assert company_key("Acme Robotics") == company_key("acme robotics inc.") != company_key("Acme")

"""Company names as people type them, in either language: "ByteDance", "字节跳动" and "字节" are one company.

`company_key` folds a typed name to one key (a known company's id, else the name without case, spaces,
punctuation or a legal suffix such as "Inc." or "有限公司"), so /stats counts each company once;
`company_name` shows a known company by its name in the user's language and any other as typed;
`public_company` is the name fit for a post others read (a study server's channel).
"""

from __future__ import annotations

import re

from bot.kernel.models import Lang
from bot.text.fold import fold

# (English name, Chinese name, other spellings). Matching ignores case, spaces and punctuation.
KNOWN: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("ByteDance", "字节跳动", ("字节", "TikTok", "抖音")),
    ("Alibaba", "阿里巴巴", ("阿里", "Alibaba Group", "Alibaba Cloud", "Aliyun", "阿里云", "Qwen", "通义")),
    ("Ant Group", "蚂蚁集团", ("蚂蚁", "Ant Financial", "蚂蚁金服")),
    ("Tencent", "腾讯", ("鹅厂",)),
    ("Baidu", "百度", ()),
    ("Meituan", "美团", ()),
    ("Kuaishou", "快手", ()),
    ("JD", "京东", ("JD.com", "Jingdong")),
    ("Huawei", "华为", ()),
    ("Xiaomi", "小米", ()),
    ("NetEase", "网易", ()),
    ("PDD", "拼多多", ("Pinduoduo", "Temu")),
    ("Didi", "滴滴", ("DiDi Chuxing", "滴滴出行")),
    ("Bilibili", "哔哩哔哩", ("B站",)),
    ("Xiaohongshu", "小红书", ("RedNote", "Little Red Book")),
    ("Moonshot AI", "月之暗面", ("Moonshot", "Kimi")),
    ("Zhipu AI", "智谱", ("Zhipu", "智谱AI", "智谱华章", "Z.ai")),
    ("DeepSeek", "深度求索", ()),
    ("MiniMax", "MiniMax", ("稀宇科技",)),
    ("Baichuan", "百川智能", ("百川", "Baichuan AI")),
    ("01.AI", "零一万物", ("Lingyiwanwu",)),
    ("StepFun", "阶跃星辰", ()),
    ("SenseTime", "商汤", ("商汤科技",)),
    ("iFlytek", "科大讯飞", ("讯飞",)),
    ("Shanghai AI Lab", "上海人工智能实验室", ("上海AI Lab", "上海 AI 实验室")),
    ("Google", "谷歌", ("Google DeepMind", "DeepMind", "Alphabet")),
    ("Microsoft", "微软", ("MSRA", "微软亚洲研究院", "Microsoft Research")),
    ("Meta", "Meta", ("Facebook", "脸书", "FAIR")),
    ("OpenAI", "OpenAI", ()),
    ("Anthropic", "Anthropic", ()),
    ("xAI", "xAI", ()),
    ("Mistral AI", "Mistral AI", ("Mistral",)),
    ("NVIDIA", "英伟达", ()),
    ("AMD", "AMD", ("超威",)),
    ("Intel", "英特尔", ()),
    ("Amazon", "亚马逊", ("AWS", "Amazon Web Services")),
    ("Apple", "苹果", ()),
    ("Samsung", "三星", ()),
    ("Tesla", "特斯拉", ()),
)

_SUFFIX = re.compile(
    r"(?:(?<![\s,.])[\s,.]++(?:inc|ltd|llc|corp|corporation|limited|co\.?,?\s*+ltd|gmbh|plc)\.?|有限责任公司|有限公司|公司|集团)$"
)
_NOISE = re.compile(r"[\s.\-_·•,，。、'’&()（）]+")
_NOT_PLAIN = re.compile(r"[^\w\s&'’+\-]|_")  # what could make a link, a mention or markup: dots and slashes too
_BLANKS = re.compile(r"\s++")
PUBLIC_NAME_CHARS = 40


def _fold(name: str) -> str:
    text = fold(name).strip()
    text = _SUFFIX.sub("", text).strip()
    return _NOISE.sub("", text)


_ALIASES: dict[str, int] = {_fold(alias): i for i, (en, zh, others) in enumerate(KNOWN) for alias in (en, zh, *others)}


def company_key(name: str) -> str:
    """One key per company: "known:<index>" for a company of the table, else the folded name."""
    folded = _fold(name)
    index = _ALIASES.get(folded)
    return f"known:{index}" if index is not None else folded or name.strip()


def company_name(name: str, lang: Lang) -> str:
    """A known company's name in `lang`; any other name as the user typed it."""
    index = _ALIASES.get(_fold(name))
    if index is None:
        return name.strip()
    en, zh, _others = KNOWN[index]
    return zh if lang == "zh" else en


def public_company(name: str, lang: Lang) -> str | None:
    """A company name for a post others read, under the bot's name: a known company's name in `lang`; any other
    reduced to plain words (letters, digits, spaces and & ' + -, at most 40 characters), so no link (not even a
    bare domain), mention, masked link or markup a member typed survives; None when nothing plain is left."""
    index = _ALIASES.get(_fold(name))
    if index is not None:
        en, zh, _others = KNOWN[index]
        return zh if lang == "zh" else en
    plain = _BLANKS.sub(" ", _NOT_PLAIN.sub(" ", name[: PUBLIC_NAME_CHARS * 4])).strip()
    if len(plain) > PUBLIC_NAME_CHARS:  # cut at a word's end where there is one
        cut = plain[: PUBLIC_NAME_CHARS + 1]
        plain = cut[: cut.rfind(" ")] if " " in cut else cut[:PUBLIC_NAME_CHARS]
    return plain.strip() or None

"""The hand-written tables the offline job-description reader (bot/features/jd/match.py) matches: common JD
phrases for each bank subtopic, in English and Chinese, and common skills the bank has no subtopic for.

Phrases are matched case-insensitively after NFKC (full-width to half-width); a Latin phrase only as a whole
word (so "adam" is not found in "adamw"), with an optional plural "s", and spaces or hyphens inside it
matching either. Where two phrases overlap, the longer one wins ("activation checkpointing" is not also
"checkpointing"; "triton inference server" is not the Triton kernel language).

Reviewed against the bank's questions (content/): a phrase names a subtopic when a reader of the JD would
expect that subtopic's questions. Deliberate choices: "CUDA", "Triton" and "算子" name the kernels subtopic
(the bank asks about kernel fusion, FlashAttention and throughput work); "强化学习" and "alignment" name
RLHF; "微调" and "fine-tuning" name SFT; "复现" alone is not reproducibility (JDs say "复现论文")."""

from __future__ import annotations

SUBTOPIC_PHRASES: dict[str, tuple[str, ...]] = {
    "parallelism": (
        "fsdp", "deepspeed", "zero-1", "zero-2", "zero-3", "zero", "megatron", "megatron-lm", "data parallel",
        "data parallelism", "tensor parallel", "tensor parallelism", "pipeline parallel", "pipeline parallelism",
        "sequence parallel", "sequence parallelism", "context parallel", "context parallelism", "model parallel",
        "model parallelism", "3d parallelism", "expert parallelism", "distributed training", "ring attention",
        "ulysses", "数据并行", "张量并行", "流水线并行", "序列并行", "上下文并行", "模型并行", "专家并行", "3d 并行",
        "并行策略", "混合并行", "分布式训练", "多机多卡",
    ),
    "distributed-failures": (
        "nccl", "torchrun", "straggler", "fault tolerance", "fault-tolerant", "elastic training", "bad nodes",
        "node failure", "hangs", "silent data corruption", "容错", "弹性训练", "慢节点", "故障节点", "节点故障",
        "通信超时", "hang 住", "卡死",
    ),
    "checkpointing": (
        "checkpoint save", "checkpoint saving", "checkpointing", "断点续训", "checkpoint 保存",
        "检查点", "故障恢复",
    ),
    "activation-checkpointing": (
        "activation checkpointing", "gradient checkpointing", "activation recomputation", "recomputation",
        "激活重计算", "重计算", "激活检查点", "梯度检查点",
    ),
    "memory": (
        "gpu memory", "memory usage", "memory footprint", "memory optimization", "out of memory", "oom", "offload",
        "offloading", "显存", "显存优化", "显存占用",
    ),
    "mixed-precision": (
        "mixed precision", "bf16", "bfloat16", "fp16", "fp8", "loss scaling", "transformer engine",
        "混合精度", "低精度训练", "数值精度",
    ),
    "kernels": (
        "cuda", "cuda kernel", "triton", "kernel", "fused kernel", "kernel fusion", "operator fusion",
        "flashattention", "flash attention", "flash-attention", "torch.compile", "cutlass", "profiling",
        "算子", "融合算子", "算子融合", "算子优化", "算子开发", "cuda 编程", "性能分析",
    ),
    "monitoring": (
        "mfu", "training throughput", "tokens/s", "training monitoring", "训练监控", "训练吞吐",
    ),
    "data-loading": (
        "data loading", "dataloader", "input pipeline", "gpu utilization", "数据加载", "gpu 利用率", "io 瓶颈",
    ),
    "tokenizer": (
        "tokenizer", "tokenization", "bpe", "sentencepiece", "vocabulary", "分词", "分词器", "词表", "词表扩充",
    ),
    "data-cleaning": (
        "data cleaning", "data curation", "clean and filter", "quality filtering", "data filtering", "data quality", "pii",
        "toxicity filtering", "quality classifier", "common crawl", "数据清洗", "清洗", "数据过滤", "质量过滤",
        "数据质量", "隐私信息", "有害内容", "质量打分",
    ),
    "deduplication": (
        "deduplication", "dedup", "near-duplicate", "minhash", "contamination", "去重", "模糊去重", "污染",
    ),
    "data-mixture": (
        "data mixture", "data mix", "data ratio", "doremi", "curriculum", "数据配比", "配比", "混合比例",
        "数据混合", "课程学习",
    ),
    "continual-pretraining": (
        "continual pretraining", "continual pre-training", "continued pretraining", "continued pre-training",
        "domain-adaptive", "domain adaptation", "catastrophic forgetting", "继续预训练", "增量预训练",
        "二次预训练", "领域适配", "灾难性遗忘",
    ),
    "scaling-laws": ("scaling law", "scaling-law", "chinchilla", "compute-optimal", "缩放定律", "规模定律"),
    "architecture": (
        "model architecture", "transformer architecture", "attention variants", "positional encoding",
        "decoder-only", "gqa", "mqa", "模型结构", "模型架构", "网络结构", "transformer 结构", "transformer 架构",
        "注意力机制",
    ),
    "normalization": ("normalization", "normalisation", "layernorm", "rmsnorm", "pre-ln", "post-ln", "归一化"),
    "initialization": ("initialization", "initialisation", "mup", "μp", "参数初始化", "初始化"),
    "optimizers": (
        "optimizer", "optimiser", "adamw", "adam", "adafactor", "lion optimizer", "muon", "shampoo", "优化器",
    ),
    "lr-schedule": (
        "learning-rate schedule", "learning rate schedule", "warmup", "cosine decay", "wsd", "学习率调度",
        "学习率策略",
    ),
    "batch-lr-scaling": ("critical batch size", "batch size scaling", "批大小", "batch size 与学习率"),
    "hyperparameter-tuning": (
        "hyperparameter tuning", "hyperparameter search", "hyperparameter sweep", "超参数调优", "超参搜索", "调参",
    ),
    "gradient-accumulation": ("gradient accumulation", "梯度累积"),
    "gradient-clipping": ("gradient clipping", "梯度裁剪"),
    "gradient-explosion": ("gradient explosion", "exploding gradients", "vanishing gradients", "梯度爆炸", "梯度消失"),
    "loss-spikes": ("loss spike", "loss spikes", "divergence", "z-loss", "qk-norm", "loss 尖峰", "loss 突刺", "loss 毛刺", "发散"),
    "nan-loss": ("nan loss", "loss nan", "nan", "nan/inf", "loss 变 nan", "出现 nan"),
    "attention-numerics": ("numerical stability", "attention logits", "数值稳定", "数值溢出"),
    "stability-metrics": ("training stability", "stable training", "训练稳定性", "训练的稳定性"),
    "stability-tradeoffs": ("local sgd", "diloco", "asynchronous sgd", "异步训练"),
    "reproducibility": ("reproducibility", "determinism", "deterministic training", "可复现性", "确定性训练"),
    "moe-stability": (
        "moe", "mixture of experts", "mixture-of-experts", "expert routing", "load-balancing loss", "混合专家",
        "专家路由", "专家负载均衡",
    ),
    "long-context": (
        "long context", "long-context", "context extension", "context window", "rope scaling", "yarn",
        "position interpolation", "长上下文", "长文本", "上下文扩展", "上下文窗口", "长序列",
    ),
    "sft": (
        "sft", "supervised fine-tuning", "instruction tuning", "instruction data", "fine-tune", "fine-tuning",
        "finetuning", "chat template", "指令微调", "监督微调", "指令数据", "微调",
    ),
    "lora": ("lora", "qlora", "peft", "parameter-efficient", "参数高效"),
    "rlhf": (
        "rlhf", "ppo", "reward model", "reward modeling", "human preference", "reinforcement learning", "alignment",
        "奖励模型", "人类反馈", "强化学习", "(对齐)", "对齐算法", "对齐训练", "模型对齐", "价值对齐", "llm 对齐",
        "偏好数据",
    ),
    "rlhf-stability": (
        "unstable rl", "kl blow-up", "value-function", "value function", "reward hacking", "entropy collapse",
        "熵坍塌", "rl 训练不稳定", "训练不稳定",
    ),
    "dpo": ("dpo", "simpo", "kto", "orpo", "direct preference optimization", "offline preference"),
    "grpo": ("grpo", "dapo", "rlvr", "verifiable reward", "可验证奖励", "规则奖励"),
    "evaluation": (
        "evaluation", "evals", "eval", "benchmark", "llm-as-a-judge", "human eval", "perplexity", "mmlu",
        "gsm8k", "humaneval", "c-eval", "评测", "评测体系", "评测集", "人工评测", "自动评测", "效果评估", "模型评估",
        "困惑度",
    ),
    "overfitting-leakage": (
        "overfitting", "data leakage", "train/test leakage", "test leakage", "过拟合", "数据泄漏", "数据泄露",
    ),
    "training-stages": ("training stages", "训练阶段", "预训练、sft", "pretraining, sft"),
    "pipeline-design": ("compute budget", "training recipe", "算力预算", "训练方案设计"),
    "training-debugging": ("debug training", "debugging training", "训练排错", "训练问题排查"),
}  # fmt: skip
"""Phrases a JD uses for each bank subtopic. A phrase listed under two subtopics names both."""

UNCOVERED_SKILLS: dict[str, tuple[str, ...]] = {
    "C++": ("c++",),
    "Rust": ("rust",),
    "Go": ("golang",),
    "Java": ("java",),
    "SQL": ("sql",),
    "Kubernetes": ("kubernetes", "k8s"),
    "Docker": ("docker",),
    "Slurm": ("slurm",),
    "Spark": ("spark", "pyspark"),
    "Hadoop": ("hadoop",),
    "Ray": ("ray",),
    "Airflow": ("airflow",),
    "RDMA / InfiniBand": ("rdma", "infiniband"),
    "vLLM": ("vllm",),
    "SGLang": ("sglang",),
    "TensorRT-LLM": ("tensorrt-llm", "tensorrt", "trt-llm"),
    "Inference serving": (
        "inference engine", "inference service", "serving", "model serving", "triton inference server", "推理服务", "推理框架", "在线推理",
    ),
    "Inference optimisation": ("inference optimization", "inference acceleration", "推理加速", "推理优化"),
    "KV cache": ("kv cache", "kv-cache", "paged kv cache", "pagedattention", "prefix caching"),
    "Continuous batching": ("continuous batching", "连续批处理"),
    "Speculative decoding": ("speculative decoding", "投机采样", "投机解码"),
    "Quantization": ("quantization", "quantized", "int8", "int4", "awq", "gptq", "量化"),
    "Distillation": ("distillation", "distilled", "蒸馏"),
    "Pruning": ("pruning", "剪枝"),
    "RAG": ("rag", "retrieval-augmented", "检索增强"),
    "Agents": ("agent", "agents", "智能体"),
    "Tool use": ("tool use", "function calling", "工具调用"),
    "Prompt engineering": ("prompt engineering", "prompt 工程", "提示词工程"),
    "Vector databases": ("vector database", "向量数据库"),
    "Knowledge graphs": ("knowledge graph", "知识图谱"),
    "Multimodal": ("multimodal", "多模态"),
    "Computer vision": ("computer vision", "计算机视觉"),
    "Speech": ("speech recognition", "asr", "tts", "语音识别", "语音合成"),
    "Recommender systems": ("recommender system", "recommendation system", "推荐系统", "推荐算法"),
    "Search ranking": ("search ranking", "搜索排序"),
    "Synthetic data": ("synthetic data", "数据合成", "合成数据"),
    "Data annotation": ("data annotation", "data labeling", "数据标注"),
    "Web crawling": ("web crawling", "crawler", "爬虫", "网页数据抓取"),
    "Safety training": ("constitutional ai", "safety training", "安全对齐"),
    "Autoscaling": ("autoscaling", "弹性伸缩"),
    "Microservices": ("microservice", "微服务"),
}  # fmt: skip
"""Common JD skills the bank has no subtopic for, by the name shown to the user, with their phrases."""

"""One package per feature of the product. Each imports the kernel (bot/kernel), bot/text and, where a feature builds on another, that feature; never a platform, database or LLM library."""

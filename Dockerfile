# The bot in a container: same install steps as the README's quick start.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 bot
WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY prompts ./prompts
COPY content ./content
RUN python3 -m venv /app/.venv && /app/.venv/bin/pip install -q -e . \
    && mkdir -p /app/data && chown bot:bot /app/data
USER bot
VOLUME ["/app/data"]
CMD ["/app/.venv/bin/python", "-m", "bot", "run"]

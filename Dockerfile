# The bot in a container: the dependencies pinned with hashes (requirements.lock, made by
# scripts/update_lock.py from pyproject.toml), then the package itself.
# The base image is pinned by digest (python:3.11.10-slim-bookworm); to move it on, read the new digest with
# `docker buildx imagetools inspect python:3.11-slim-bookworm` and rebuild.
FROM python:3.11.10-slim-bookworm@sha256:5148c0e4bbb64271bca1d3322360ebf4bfb7564507ae32dd639322e4952a6b16

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
# no system fonts: the chart's CJK font (Noto Sans CJK SC) comes from the mplfonts wheel in requirements.lock
RUN useradd --create-home --uid 10001 bot
WORKDIR /app
COPY requirements.lock ./
RUN python3 -m venv /app/.venv && /app/.venv/bin/pip install -q --require-hashes -r requirements.lock
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY prompts ./prompts
COPY content ./content
RUN /app/.venv/bin/pip install -q --no-deps -e . \
    && mkdir -p /app/data && chown bot:bot /app/data
USER bot
VOLUME ["/app/data"]
CMD ["/app/.venv/bin/python", "-m", "bot", "run"]

# The Delve API. The same image runs workers: `delve worker --with-reactor` (see docker-compose.yml).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app
COPY pyproject.toml README.md openapi.yaml ./
COPY domain ./domain
COPY events ./events
COPY application ./application
COPY localredis ./localredis
COPY settings ./settings
COPY server ./server
COPY workers ./workers
COPY benchmarks ./benchmarks
COPY delve ./delve
RUN pip install . \
 && useradd --create-home --uid 10001 delve

USER delve
ENV REDIS_URL=redis://redis:6379/0
EXPOSE 8000

HEALTHCHECK --interval=15s --timeout=5s --start-period=15s --retries=3 \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=3).status != 200)"]

CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "2", "--worker-class", "gevent", "--worker-connections", "1000", \
     "--graceful-timeout", "5", "--access-logfile", "-", "server.app:create_app()"]

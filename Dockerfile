# The Delve image: the wheel built from this source, installed the way any user installs it
# (no source tree in the image). One image runs every process; docker-compose.yml picks the command:
#   API (default):  gunicorn serving server.app:create_app() on gevent workers, port 8000
#   delve worker    rq worker(s) for bot turns, clocks, scoring
#   delve reactor   reads the feeds, schedules the jobs, runs the followers
# Configuration is the environment (docs/settings.md); REDIS_URL is required.
FROM python:3.11-slim AS wheel
WORKDIR /src
COPY . .
RUN pip wheel --no-deps --no-cache-dir --disable-pip-version-check -w /dist .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY --from=wheel /dist/ /tmp/dist/
RUN pip install /tmp/dist/delve-*.whl \
 && rm -rf /tmp/dist \
 && useradd --create-home --uid 10001 delve \
 && install -d -o delve -g delve -m 0700 /home/delve/signing
USER delve
WORKDIR /home/delve
EXPOSE 8000

# No process named: the check asks PID 1 which it is (gunicorn, delve worker, delve reactor), so a
# container started with `docker run delve:latest delve worker` is judged as a worker.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 CMD ["delve", "healthcheck"]

CMD ["gunicorn", "--bind", "0.0.0.0:8000", "--workers", "2", "--worker-class", "gevent", "--worker-connections", "1000", \
     "--graceful-timeout", "5", "--access-logfile", "-", "server.app:create_app()"]

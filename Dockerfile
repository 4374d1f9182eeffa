# storeloc on the official Bun image. docs/operations.md says how to build and run it; the data
# (the database and the geocoder's) lives in the /data volume.
FROM oven/bun:1.4.5-slim
WORKDIR /app
COPY package.json package-lock.json ./
# Bun reads package-lock.json; the npm package "bun" is not needed here (the image has Bun).
RUN bun install --production --ignore-scripts && rm -rf node_modules/bun node_modules/@oven
COPY bin ./bin
COPY src ./src
COPY data/demo ./data/demo
ENV DATABASE_PATH=/data/storeloc.db \
    GEODATA_PATH=/data/geocoder.sqlite \
    HOST=0.0.0.0 \
    PORT=3000 \
    STOP_TIMEOUT_SECONDS=8
# `storeloc` on the PATH: the command the service's messages name (`storeloc key create ...`).
RUN mkdir -p /data && chown bun:bun /data && ln -s /app/bin/storeloc.sh /usr/local/bin/storeloc
USER bun
VOLUME /data
EXPOSE 3000
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s \
  CMD ["bun", "-e", "const r = await fetch(`http://127.0.0.1:${process.env.PORT || 3000}/readyz`); process.exit(r.ok ? 0 : 1)"]
CMD ["bun", "src/main.ts"]

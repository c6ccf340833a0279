# freshctx: both binaries in one image. confluent-kafka-go links librdkafka through
# cgo (bundled, static), so the build needs a C compiler and glibc.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=1 go build -trimpath -ldflags="-s -w" -o /out/ ./cmd/ingest ./cmd/contextapi

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates wordnet-base && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/ /usr/local/bin/
COPY compose/freshctx.yaml /etc/freshctx/freshctx.yaml
USER nobody
EXPOSE 8080 9464
ENTRYPOINT ["ingest"]
CMD ["-config", "/etc/freshctx/freshctx.yaml"]

package api

import (
	_ "embed"
	"net/http"
)

// openAPI is the API's OpenAPI 3 document, served at /openapi.yaml and held true
// to the handlers by TestOpenAPIMatchesTheCode.
//
//go:embed openapi.yaml
var openAPI []byte

func (s *Server) handleOpenAPI(w http.ResponseWriter, _ *http.Request) error {
	w.Header().Set("Content-Type", "application/yaml")
	_, err := w.Write(openAPI)
	return err
}

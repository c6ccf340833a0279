// Package compose holds the Docker Compose stack (docker-compose.yml and the files
// it mounts) and no code: its tests check what can be checked without Docker.
package compose

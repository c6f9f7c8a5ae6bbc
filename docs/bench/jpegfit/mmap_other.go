//go:build !unix

package main

import (
	"fmt"
	"os"
)

// mapFile reads path whole (no mmap here).
func mapFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("map: %w", err)
	}
	return data, nil
}

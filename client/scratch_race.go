//go:build race

package client

// poisonScratch: scratches given back are poisoned (scratch.go).
const poisonScratch = true

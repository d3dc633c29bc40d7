//go:build !race

package gogen_test

const raceEnabled = false

package client_test

import (
	"os"
	"testing"
)

// TestMain keeps the default credential chain off the instance metadata
// service: a test without credentials must not reach 169.254.169.254 (tests
// of IMDS point AWS_EC2_METADATA_SERVICE_ENDPOINT at a fake).
func TestMain(m *testing.M) {
	os.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	os.Exit(m.Run())
}

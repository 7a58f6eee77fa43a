package sigstore

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"testing"
)

// TestWithEnv: empty options are filled from the environment, flags win,
// and a keyed signer never gets Fulcio or Rekor from it.
func TestWithEnv(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(TokenEnv, "env-token")
	t.Setenv(FulcioEnv, "http://fulcio.env")
	t.Setenv(RekorEnv, "http://rekor.env")
	tests := []struct {
		name                string
		in                  SignOptions
		token, fulcio, rekr string
	}{
		{"keyless, nothing given", SignOptions{}, "env-token", "http://fulcio.env", "http://rekor.env"},
		{"flags win", SignOptions{IdentityToken: "flag", FulcioURL: "http://f", RekorURL: "http://r"}, "flag", "http://f", "http://r"},
		{"keyed stays offline", SignOptions{Key: key}, "env-token", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.in.WithEnv()
			if got.IdentityToken != tt.token || got.FulcioURL != tt.fulcio || got.RekorURL != tt.rekr {
				t.Errorf("got token %q fulcio %q rekor %q", got.IdentityToken, got.FulcioURL, got.RekorURL)
			}
		})
	}
	if ok, _ := KeylessReady(); !ok {
		t.Error("KeylessReady with a token set")
	}
	t.Setenv(TokenEnv, "")
	if ok, why := KeylessReady(); ok || why == "" {
		t.Errorf("KeylessReady without a token: %v %q", ok, why)
	}
}

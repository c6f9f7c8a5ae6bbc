package windows

import (
	"slices"
	"testing"
)

func TestWindowEnvCarriesLanguage(t *testing.T) {
	w := New(Config{Language: func() string { return "ja" }})
	if env := w.env("tok"); !slices.Equal(env, []string{TokenEnv + "=tok", LangEnv + "=ja"}) {
		t.Fatalf("env %v", env)
	}
	if env := New(Config{}).env("tok"); !slices.Equal(env, []string{TokenEnv + "=tok"}) {
		t.Fatalf("no language: env %v", env)
	}
}

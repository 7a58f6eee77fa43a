package scaffold

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestSecretName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"API_KEY": true, "WEATHER_API_KEY": true, "GITHUB_TOKEN": true, "CLIENT_SECRET": true, "DB_PASSWORD": true,
		"SMTP_PASSWD": true, "acme_api_key": true, "AWS_SECRET_ACCESS_KEY": true, "OPENAI_APIKEY": true, "API_KEY_2": true,
		"WEATHER_UNITS": false, "SETTING_2": false, "AWS_ACCESS_KEY_ID": false, "TOKEN_URL": false, "REGION": false, "": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
}

func plannedEnv(t *testing.T, a ToolAnswers) []envDoc {
	t.Helper()
	p, err := PlanTool(a, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Env []envDoc }
	if err := json.Unmarshal(p.Files[0].Data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Env
}

// TestEnvFollowsName (issue 17, bug 1): a variable's prompt and secret
// flag follow its current name, not its place in the list, until they are
// given; from the wizard's answers, --set and --values alike.
func TestEnvFollowsName(t *testing.T) {
	t.Parallel()
	a := ToolAnswers{}.Defaults()
	a.Env = []EnvAnswers{NewEnv(0), NewEnv(1)}
	a.Env[0].Name, a.Env[1].Name = "WEATHER_UNITS", "WEATHER_API_KEY"
	env := plannedEnv(t, a)
	if env[0].Secret || !env[1].Secret || env[1].Prompt != EnvPrompt("WEATHER_API_KEY") || env[0].Prompt != EnvPrompt("WEATHER_UNITS") {
		t.Errorf("derived: %+v", env)
	}

	// given: kept across a new name; the flag the name implies stays derived
	a.Env[1].SetSecret(false)
	a.Env[1].Name = "WEATHER_TOKEN"
	a.Env[0].SetSecret(false)
	a.Env[0].Name = "WEATHER_KEY"
	a.Env[0].Prompt = "Your key."
	env = plannedEnv(t, a)
	if env[1].Secret || !env[0].Secret || env[0].Prompt != "Your key." {
		t.Errorf("given: %+v", env)
	}

	b := ToolAnswers{}.Defaults()
	for _, kv := range [][2]string{{"env.0.name", "ACME_TOKEN"}, {"env.1.name", "ACME_REGION"}, {"env.2.name", "ACME_KEY"}, {"env.2.secret", "false"}} {
		if err := Set(&b, kv[0], kv[1]); err != nil {
			t.Fatalf("--set %s=%s: %v", kv[0], kv[1], err)
		}
	}
	env = plannedEnv(t, b)
	if !env[0].Secret || env[1].Secret || env[2].Secret || !strings.Contains(env[1].Prompt, "ACME_REGION") {
		t.Errorf("--set: %+v", env)
	}
	if err := Set(&b, "env.0.secret", "maybe"); err == nil {
		t.Error("--set env.0.secret=maybe accepted")
	}
	c := ToolAnswers{}.Defaults()
	if err := Values(&c, []byte(`{"env": [{"name": "A_PASSWORD", "required": true}]}`)); err != nil {
		t.Fatal(err)
	}
	if env = plannedEnv(t, c); !env[0].Secret {
		t.Errorf("--values: %+v", env)
	}
}

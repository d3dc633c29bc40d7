package credchain

import (
	"crypto/sha1"
	"encoding/hex"
	"net/http"

	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

const (
	cfgFile  = ".aws/config"
	credFile = ".aws/credentials"
	startURL = "https://example.awsapps.com/start"
)

// files pairs paths under HOME with their text.
func files(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// env pairs variables with values.
func env(kv ...string) map[string]string { return files(kv...) }

// ssoCache is the token cache file of an sso-session name or a legacy
// start URL.
func ssoCache(key string) string {
	sum := sha1.Sum([]byte(key))
	return ".aws/sso/cache/" + hex.EncodeToString(sum[:]) + ".json"
}

// envKeys are AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY of key ENV.
var envKeys = []string{"AWS_ACCESS_KEY_ID", "{ID:ENV}", "AWS_SECRET_ACCESS_KEY", "{SK:ENV}"}

func with(a []string, kv ...string) []string { return append(append([]string(nil), a...), kv...) }

const (
	defCred = "[default]\naws_access_key_id = {ID:DEFCRED}\naws_secret_access_key = {SK:DEFCRED}\n"
	defConf = "[default]\naws_access_key_id = {ID:DEFCONF}\naws_secret_access_key = {SK:DEFCONF}\n"
	devCred = "[dev]\naws_access_key_id = {ID:DEVCRED}\naws_secret_access_key = {SK:DEVCRED}\n"
	devConf = "[profile dev]\naws_access_key_id = {ID:DEVCONF}\naws_secret_access_key = {SK:DEVCONF}\nregion = eu-west-1\n"
	srcCred = "[src]\naws_access_key_id = {ID:SRC}\naws_secret_access_key = {SK:SRC}\n"

	procOK      = "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": \"{ID:PROC}\", \"SecretAccessKey\": \"{SK:PROC}\", \"SessionToken\": \"" + procToken + "\"}'\n"
	procFail    = "#!/bin/sh\necho 'login required' >&2\nexit 3\n"
	procGarbage = "#!/bin/sh\necho 'this is not JSON'\n"
	procV2      = "#!/bin/sh\necho '{\"Version\": 2, \"AccessKeyId\": \"{ID:PROC}\", \"SecretAccessKey\": \"{SK:PROC}\"}'\n"

	ssoSession = "[profile sso]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Admin\nregion = us-west-2\n\n[sso-session corp]\nsso_start_url = " + startURL + "\nsso_region = us-east-1\nsso_registration_scopes = sso:account:access\n"
	ssoLegacy  = "[profile legacy]\nsso_start_url = " + startURL + "\nsso_region = us-east-1\nsso_account_id = 444455556666\nsso_role_name = ReadOnly\n"
)

// Cases is the matrix.
func Cases() []Case {
	var cs []Case
	add := func(group string, list ...Case) {
		for _, c := range list {
			c.Group = group
			cs = append(cs, c)
		}
	}

	add("env",
		Case{Name: "keys", Env: env(envKeys...)},
		Case{Name: "session-token", Env: env(with(envKeys, "AWS_SESSION_TOKEN", sessionToken)...)},
		Case{Name: "security-token", Env: env(with(envKeys, "AWS_SECURITY_TOKEN", sessionToken)...)},
		Case{Name: "id-without-secret", Env: env("AWS_ACCESS_KEY_ID", "{ID:ENV}"), Mentions: []string{"AWS_SECRET_ACCESS_KEY"}},
		Case{Name: "secret-without-id", Env: env("AWS_SECRET_ACCESS_KEY", "{SK:ENV}"), Files: files(credFile, defCred)},
		Case{Name: "empty-id", Env: env("AWS_ACCESS_KEY_ID", "", "AWS_SECRET_ACCESS_KEY", "{SK:ENV}"), Files: files(credFile, defCred)},
		Case{Name: "beats-default-profile", Env: env(envKeys...), Files: files(credFile, defCred)},
		Case{Name: "beats-AWS_PROFILE", Env: env(with(envKeys, "AWS_PROFILE", "dev")...), Files: files(credFile, devCred)},
		Case{Name: "explicit-profile-skips-env", Env: env(envKeys...), Profile: "dev", Files: files(credFile, devCred)},
		Case{Name: "explicit-profile-skips-partial-env", Env: env("AWS_ACCESS_KEY_ID", "{ID:ENV}"), Profile: "dev", Files: files(credFile, devCred)},
	)

	add("static",
		Case{Name: "default-credentials-file", Files: files(credFile, defCred)},
		Case{Name: "default-config-file", Files: files(cfgFile, defConf)},
		Case{Name: "credentials-file-beats-config-file", Files: files(credFile, defCred, cfgFile, defConf)},
		Case{Name: "AWS_PROFILE-credentials-file", Env: env("AWS_PROFILE", "dev"), Files: files(credFile, defCred+devCred)},
		Case{Name: "AWS_PROFILE-config-file", Env: env("AWS_PROFILE", "dev"), Files: files(cfgFile, defConf+devConf)},
		Case{Name: "AWS_DEFAULT_PROFILE", Env: env("AWS_DEFAULT_PROFILE", "dev"), Files: files(cfgFile, devConf)},
		Case{Name: "AWS_PROFILE-vs-AWS_DEFAULT_PROFILE", Env: env("AWS_PROFILE", "dev", "AWS_DEFAULT_PROFILE", "other"),
			Files: files(credFile, devCred+"[other]\naws_access_key_id = {ID:OTHER}\naws_secret_access_key = {SK:OTHER}\nregion = ap-south-1\n")},
		Case{Name: "explicit-beats-AWS_PROFILE", Env: env("AWS_PROFILE", "dev"), Profile: "other",
			Files: files(credFile, devCred+"[other]\naws_access_key_id = {ID:OTHER}\naws_secret_access_key = {SK:OTHER}\n")},
		Case{Name: "config-section-without-profile-prefix", Env: env("AWS_PROFILE", "dev"),
			Files: files(cfgFile, "[default]\nregion = us-east-2\n[dev]\naws_access_key_id = {ID:DEVCONF}\naws_secret_access_key = {SK:DEVCONF}\n")},
		Case{Name: "profile-default-form", Files: files(cfgFile, "[profile default]\naws_access_key_id = {ID:DEFCONF}\naws_secret_access_key = {SK:DEFCONF}\nregion = ca-central-1\n")},
		Case{Name: "quoted-profile-name", Env: env("AWS_PROFILE", "my dev"),
			Files: files(cfgFile, "[profile \"my dev\"]\naws_access_key_id = {ID:QUOTED}\naws_secret_access_key = {SK:QUOTED}\nregion = sa-east-1\n")},
		Case{Name: "crlf", Env: env("AWS_PROFILE", "dev"),
			Files: files(cfgFile, "[profile dev]\r\nregion = eu-north-1\r\n", credFile, "[dev]\r\naws_access_key_id = {ID:DEVCRED}\r\naws_secret_access_key = {SK:DEVCRED}\r\n")},
		Case{Name: "comments-and-blank-lines", Files: files(credFile, "# written by aws configure\n\n; another comment\n[default]\n# the key\naws_access_key_id = {ID:DEFCRED}\n\naws_secret_access_key = {SK:DEFCRED}\n")},
		Case{Name: "spacing-around-equals", Files: files(credFile, "[default]\naws_access_key_id={ID:DEFCRED}\naws_secret_access_key\t =  {SK:DEFCRED}\n", cfgFile, "[default]\nregion=us-west-1   \n")},
		Case{Name: "inline-hash-is-value", Files: files(credFile, "[default]\naws_access_key_id = {ID:DEFCRED} # mine\naws_secret_access_key = {SK:DEFCRED}\n")},
		Case{Name: "session-token-in-file", Files: files(credFile, "[default]\naws_access_key_id = {ID:DEFCRED}\naws_secret_access_key = {SK:DEFCRED}\naws_session_token = "+sessionToken+"\n")},
		Case{Name: "id-without-secret", Files: files(credFile, "[default]\naws_access_key_id = {ID:DEFCRED}\n"), Mentions: []string{"default"}},
		Case{Name: "custom-file-paths", Env: env("AWS_SHARED_CREDENTIALS_FILE", "{HOME}/elsewhere/creds", "AWS_CONFIG_FILE", "{HOME}/elsewhere/conf"),
			Files: files("elsewhere/creds", "[default]\naws_access_key_id = {ID:CUSTOM}\naws_secret_access_key = {SK:CUSTOM}\n", "elsewhere/conf", "[default]\nregion = me-south-1\n", credFile, defCred)},
		Case{Name: "credentials-file-profile-prefix-is-a-name", Env: env("AWS_PROFILE", "dev"),
			Files: files(credFile, "[profile dev]\naws_access_key_id = {ID:DEVCRED}\naws_secret_access_key = {SK:DEVCRED}\n"), Mentions: []string{"dev"}},
	)

	add("ini",
		Case{Name: "upper-case-keys", Files: files(credFile, "[default]\nAWS_ACCESS_KEY_ID = {ID:DEFCRED}\nAws_Secret_Access_Key = {SK:DEFCRED}\n", cfgFile, "[default]\nRegion = us-west-1\n")},
		Case{Name: "colon-delimiter", Files: files(credFile, "[default]\naws_access_key_id: {ID:DEFCRED}\naws_secret_access_key : {SK:DEFCRED}\n", cfgFile, "[default]\nregion: eu-south-1\n")},
		Case{Name: "duplicate-section", Files: files(credFile, defCred+"[default]\naws_session_token = "+sessionToken+"\n")},
		Case{Name: "duplicate-key", Files: files(credFile, defCred+"aws_access_key_id = {ID:OTHER}\n")},
		Case{Name: "header-trailing-text", Files: files(credFile, "[default] ; main\naws_access_key_id = {ID:DEFCRED}\naws_secret_access_key = {SK:DEFCRED}\n")},
		Case{Name: "profile-double-space", Env: env("AWS_PROFILE", "dev"), Files: files(cfgFile, "[profile  dev]\naws_access_key_id = {ID:DEVCONF}\naws_secret_access_key = {SK:DEVCONF}\n")},
		Case{Name: "profile-three-words-ignored", Env: env("AWS_PROFILE", "dev"), Files: files(cfgFile, "[profile dev x]\naws_access_key_id = {ID:DEVCONF}\naws_secret_access_key = {SK:DEVCONF}\n")},
		Case{Name: "continuation-line", Files: files(cfgFile, "[default]\nregion = us-west-1\n  extra\n", credFile, defCred)},
		Case{Name: "nested-s3-section", Files: files(cfgFile, "[default]\ns3 =\n  addressing_style = path\nregion = eu-west-1\n", credFile, defCred)},
		Case{Name: "config-file-tilde", Env: env("AWS_CONFIG_FILE", "~/custom/conf"), Files: files("custom/conf", "[default]\nregion = us-east-2\naws_access_key_id = {ID:CUSTOM}\naws_secret_access_key = {SK:CUSTOM}\n")},
	)

	add("files",
		Case{Name: "none-imds-down"},
		Case{Name: "empty-files", Files: files(cfgFile, "", credFile, "")},
		Case{Name: "malformed-config", Files: files(cfgFile, "[default]\nregion = us-east-1\nthis line has no equals sign\n", credFile, defCred), Mentions: []string{"config"}},
		Case{Name: "malformed-credentials", Files: files(credFile, "aws_access_key_id = {ID:DEFCRED}\n[default]\n"), Mentions: []string{"credentials"}},
		Case{Name: "unknown-AWS_PROFILE", Env: env("AWS_PROFILE", "nosuch"), Files: files(credFile, defCred), Mentions: []string{"nosuch"}},
		Case{Name: "unknown-explicit-profile", Profile: "nosuch", Files: files(credFile, defCred), Mentions: []string{"nosuch"}},
		Case{Name: "AWS_PROFILE-default-without-files", Env: env("AWS_PROFILE", "default")},
		Case{Name: "explicit-default-without-files", Profile: "default"},
		Case{Name: "empty-AWS_PROFILE", Env: env("AWS_PROFILE", ""), Files: files(credFile, defCred),
			Exclude: "botocore takes an empty AWS_PROFILE as the profile \"\" (ProfileNotFound); smithycurl takes an empty variable as unset, as aws-sdk-go-v2 (awsconfig.Settings)"},
		Case{Name: "missing-credentials-file-named", Env: env("AWS_SHARED_CREDENTIALS_FILE", "{HOME}/nosuch"), Files: files(cfgFile, defConf)},
		Case{Name: "profile-without-credentials", Env: env("AWS_PROFILE", "dev"), Files: files(cfgFile, "[profile dev]\nregion = eu-west-3\n")},
	)

	roleCfg := func(extra string) string {
		return "[profile role]\nrole_arn = arn:aws:iam::123456789012:role/r1\nsource_profile = src\n" + extra
	}
	add("role",
		Case{Name: "source-profile-static", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg(""), credFile, srcCred)},
		Case{Name: "chain-2", Env: env("AWS_PROFILE", "a"), Files: files(cfgFile,
			"[profile a]\nrole_arn = arn:aws:iam::123456789012:role/a\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::123456789012:role/b\nsource_profile = src\n", credFile, srcCred)},
		Case{Name: "chain-3", Env: env("AWS_PROFILE", "a"), Files: files(cfgFile,
			"[profile a]\nrole_arn = arn:aws:iam::123456789012:role/a\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::123456789012:role/b\nsource_profile = c\n[profile c]\nrole_arn = arn:aws:iam::123456789012:role/c\nsource_profile = src\n", credFile, srcCred)},
		Case{Name: "cycle", Env: env("AWS_PROFILE", "a"), Files: files(cfgFile,
			"[profile a]\nrole_arn = arn:aws:iam::123456789012:role/a\nsource_profile = b\n[profile b]\nrole_arn = arn:aws:iam::123456789012:role/b\nsource_profile = a\n"), Mentions: []string{"a", "b"}},
		Case{Name: "self-source-with-keys", Env: env("AWS_PROFILE", "self"), Files: files(cfgFile,
			"[profile self]\nrole_arn = arn:aws:iam::123456789012:role/self\nsource_profile = self\naws_access_key_id = {ID:SRC2}\naws_secret_access_key = {SK:SRC2}\n")},
		Case{Name: "missing-source-profile", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg("")), Mentions: []string{"src"}},
		Case{Name: "no-source", Env: env("AWS_PROFILE", "r"), Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\n"), Mentions: []string{"r"}},
		Case{Name: "source-and-credential-source", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg("credential_source = Environment\n"), credFile, srcCred), Mentions: []string{"role"}},
		Case{Name: "external-id-session-name-duration", Env: env("AWS_PROFILE", "role"),
			Files: files(cfgFile, roleCfg("external_id = ext-123\nrole_session_name = mysession\nduration_seconds = 1800\n"), credFile, srcCred)},
		Case{Name: "mfa-serial", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg("mfa_serial = arn:aws:iam::123456789012:mfa/me\n"), credFile, srcCred), Mentions: []string{"mfa_serial"}},
		Case{Name: "env-beats-role", Env: env(with(envKeys, "AWS_PROFILE", "role")...), Files: files(cfgFile, roleCfg(""), credFile, srcCred)},
		Case{Name: "source-credential-process", Env: env("AWS_PROFILE", "role"),
			Files: files(cfgFile, roleCfg("")+"[profile src]\ncredential_process = {HOME}/bin/proc\n", "bin/proc", procOK)},
		Case{Name: "source-profile-config-keys-with-region", Env: env("AWS_PROFILE", "role"),
			Files: files(cfgFile, roleCfg("region = eu-central-1\n")+"[profile src]\naws_access_key_id = {ID:SRC}\naws_secret_access_key = {SK:SRC}\n")},
		Case{Name: "credential-source-environment", Env: env(envKeys...), Profile: "r",
			Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\ncredential_source = Environment\n")},
		Case{Name: "credential-source-environment-env-first", Env: env(with(envKeys, "AWS_PROFILE", "r")...),
			Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\ncredential_source = Environment\n")},
		Case{Name: "credential-source-environment-empty", Env: env("AWS_PROFILE", "r"),
			Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\ncredential_source = Environment\n")},
		Case{Name: "credential-source-ecs", Env: env("AWS_PROFILE", "r", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "{CONTAINER}"+containerPath, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken),
			Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\ncredential_source = EcsContainer\n")},
		Case{Name: "credential-source-imds", Env: env("AWS_PROFILE", "r", "AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}"),
			Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\ncredential_source = Ec2InstanceMetadata\n")},
		Case{Name: "credential-source-unknown", Env: env("AWS_PROFILE", "r"),
			Files: files(cfgFile, "[profile r]\nrole_arn = arn:aws:iam::123456789012:role/r\ncredential_source = Laptop\n"), Mentions: []string{"credential_source"}},
		Case{Name: "source-with-keys-and-role", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg("")+
			"[profile src]\nrole_arn = arn:aws:iam::123456789012:role/unused\nsource_profile = other\naws_access_key_id = {ID:SRC}\naws_secret_access_key = {SK:SRC}\n")},
		Case{Name: "source-sso", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg("")+
			"[profile src]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Admin\n[sso-session corp]\nsso_start_url = "+startURL+"\nsso_region = us-east-1\n",
			ssoCache("corp"), "{SSO:60:"+ssoAccess+":}"), Needs: "sso_source"},
		Case{Name: "duration-not-a-number", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg("duration_seconds = soon\n"), credFile, srcCred)},
		Case{Name: "explicit-profile-role", Profile: "role", Env: env(envKeys...), Files: files(cfgFile, roleCfg(""), credFile, srcCred)},
		Case{Name: "unknown-source-key", Env: env("AWS_PROFILE", "role"), Files: files(cfgFile, roleCfg(""), credFile, "[src]\naws_access_key_id = AKIAUNKNOWNEXAMPLE00\naws_secret_access_key = sk-unknown-0000000000\n")},
	)

	webEnv := []string{"AWS_WEB_IDENTITY_TOKEN_FILE", "{HOME}/token", "AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/web"}
	tokenFile := files("token", webToken)
	add("web-identity",
		Case{Name: "env", Env: env(webEnv...), Files: tokenFile},
		Case{Name: "env-session-name", Env: env(with(webEnv, "AWS_ROLE_SESSION_NAME", "pod-1")...), Files: tokenFile},
		Case{Name: "env-bad-token", Env: env(webEnv...), Files: files("token", "not-a-token")},
		Case{Name: "env-missing-token-file", Env: env(webEnv...), Mentions: []string{"token"}},
		Case{Name: "env-role-without-file", Env: env("AWS_ROLE_ARN", "arn:aws:iam::123456789012:role/web")},
		Case{Name: "env-beats-default-profile-keys", Env: env(webEnv...), Files: files("token", webToken, credFile, defCred)},
		Case{Name: "env-keys-beat-web-identity", Env: env(with(webEnv, envKeys...)...), Files: tokenFile},
		Case{Name: "explicit-profile-skips-env", Env: env(webEnv...), Profile: "dev", Files: files("token", webToken, credFile, devCred)},
		Case{Name: "profile", Env: env("AWS_PROFILE", "w"), Files: files("token", webToken, cfgFile,
			"[profile w]\nweb_identity_token_file = {HOME}/token\nrole_arn = arn:aws:iam::123456789012:role/pw\n")},
		Case{Name: "profile-as-source", Env: env("AWS_PROFILE", "role"), Files: files("token", webToken, cfgFile,
			roleCfg("")+"[profile src]\nweb_identity_token_file = {HOME}/token\nrole_arn = arn:aws:iam::123456789012:role/pw\n")},
	)

	add("sso",
		Case{Name: "session-valid", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession, ssoCache("corp"), "{SSO:60:"+ssoAccess+":}")},
		Case{Name: "session-expired-refreshed", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession, ssoCache("corp"), "{SSO:-60:"+expiredAccess+":"+ssoRefresh+"}")},
		Case{Name: "session-expiring-refreshed", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession, ssoCache("corp"), "{SSO:5:"+ssoAccess+":"+ssoRefresh+"}")},
		Case{Name: "session-expired-no-refresh", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession, ssoCache("corp"), "{SSO:-60:"+expiredAccess+":}"), Mentions: []string{"sso"}},
		Case{Name: "session-expired-refresh-rejected", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession, ssoCache("corp"), "{SSO:-60:"+expiredAccess+":bad-refresh}")},
		Case{Name: "session-no-cache", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession), Mentions: []string{"sso"}},
		Case{Name: "session-section-missing", Env: env("AWS_PROFILE", "sso"),
			Files: files(cfgFile, "[profile sso]\nsso_session = nosuch\nsso_account_id = 111122223333\nsso_role_name = Admin\n"), Mentions: []string{"nosuch"}},
		Case{Name: "session-start-url-conflict", Env: env("AWS_PROFILE", "sso"),
			Files: files(cfgFile, "[profile sso]\nsso_session = corp\nsso_start_url = https://other.awsapps.com/start\nsso_account_id = 111122223333\nsso_role_name = Admin\n"+ssoSession[len("[profile sso]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Admin\nregion = us-west-2\n"):],
				ssoCache("corp"), "{SSO:60:"+ssoAccess+":}"), Mentions: []string{"sso_start_url"}},
		Case{Name: "token-rejected", Env: env("AWS_PROFILE", "sso"), Files: files(cfgFile, ssoSession, ssoCache("corp"), "{SSO:60:unknown-access-token:}")},
		Case{Name: "legacy-valid", Env: env("AWS_PROFILE", "legacy"), Files: files(cfgFile, ssoLegacy, ssoCache(startURL), "{SSO:60:"+ssoAccess+":}")},
		Case{Name: "legacy-expired", Env: env("AWS_PROFILE", "legacy"), Files: files(cfgFile, ssoLegacy, ssoCache(startURL), "{SSO:-5:"+expiredAccess+":"+ssoRefresh+"}"), Mentions: []string{"legacy"}},
		Case{Name: "missing-role-name", Env: env("AWS_PROFILE", "legacy"),
			Files: files(cfgFile, "[profile legacy]\nsso_start_url = "+startURL+"\nsso_region = us-east-1\nsso_account_id = 444455556666\n", ssoCache(startURL), "{SSO:60:"+ssoAccess+":}"), Mentions: []string{"sso_role_name"}},
		Case{Name: "garbage-cache", Env: env("AWS_PROFILE", "legacy"), Files: files(cfgFile, ssoLegacy, ssoCache(startURL), "{not json")},
	)

	add("process",
		Case{Name: "ok", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/proc\n", "bin/proc", procOK)},
		Case{Name: "quoted-args", Files: files(cfgFile, "[default]\ncredential_process = /bin/sh \"{HOME}/bin/my proc\" --flag 'a b'\n", "bin/my proc", procOK)},
		Case{Name: "exit-status", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/proc\n", "bin/proc", procFail), Mentions: []string{"credential_process"}},
		Case{Name: "garbage", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/proc\n", "bin/proc", procGarbage), Mentions: []string{"credential_process"}},
		Case{Name: "version-2", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/proc\n", "bin/proc", procV2)},
		Case{Name: "not-found", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/nosuch\n")},
		Case{Name: "beats-config-keys", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/proc\naws_access_key_id = {ID:DEFCONF}\naws_secret_access_key = {SK:DEFCONF}\n", "bin/proc", procOK)},
		Case{Name: "credentials-file-keys-beat-it", Files: files(cfgFile, "[default]\ncredential_process = {HOME}/bin/proc\n", credFile, defCred, "bin/proc", procOK)},
	)

	full := []string{"AWS_CONTAINER_CREDENTIALS_FULL_URI", "{CONTAINER}" + containerPath}
	add("container",
		Case{Name: "full-uri-token", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken)...)},
		Case{Name: "full-uri-token-file", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", "{HOME}/ctoken")...), Files: files("ctoken", containerToken), Needs: "token_file"},
		Case{Name: "full-uri-wrong-token", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN", "wrong-token")...)},
		Case{Name: "full-uri-no-token", Env: env(full...)},
		Case{Name: "full-uri-host-not-allowed", Env: env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://example.com/creds")},
		Case{Name: "full-uri-down", Env: env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:1/creds")},
		Case{Name: "full-uri-localhost", Env: env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://localhost:{CONTAINERPORT}"+containerPath, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken)},
		Case{Name: "full-uri-https-other-host", Env: env("AWS_CONTAINER_CREDENTIALS_FULL_URI", "https://creds.example.com/creds")},
		Case{Name: "relative-beats-full", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken, "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/x")...)},
		Case{Name: "relative-uri-unreachable", Env: env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/x")},
		Case{Name: "garbage", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken)...), Setup: func(_ *credserver.IMDS, c *credserver.Container) {
			c.Override("GET "+containerPath, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{\"AccessKeyId\": 12")) })
		}},
		Case{Name: "profile-beats-container", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken)...), Files: files(credFile, defCred)},
		Case{Name: "container-beats-imds", Env: env(with(full, "AWS_CONTAINER_AUTHORIZATION_TOKEN", containerToken, "AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}")...)},
	)

	add("imds",
		Case{Name: "v2", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}")},
		Case{Name: "down", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{DOWN}")},
		Case{Name: "disabled", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}", "AWS_EC2_METADATA_DISABLED", "true")},
		Case{Name: "disabled-upper-case", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}", "AWS_EC2_METADATA_DISABLED", "TRUE")},
		Case{Name: "endpoint-from-profile", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "-"), Files: files(cfgFile, "[default]\nec2_metadata_service_endpoint = {IMDS}\nregion = us-east-2\n")},
		Case{Name: "v1-fallback", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}"), Setup: func(i *credserver.IMDS, _ *credserver.Container) {
			i.AllowV1(true)
			i.Override("PUT /latest/api/token", http.NotFound)
		}},
		Case{Name: "token-refused-400", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}"), Setup: func(i *credserver.IMDS, _ *credserver.Container) {
			i.Override("PUT /latest/api/token", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "bad", http.StatusBadRequest) })
		}},
		Case{Name: "garbage-credentials", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}"), Setup: func(i *credserver.IMDS, _ *credserver.Container) {
			i.Override("GET "+credserver.RolePath+"test-role", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>not json")) })
		}},
		Case{Name: "no-role", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}"), Setup: func(i *credserver.IMDS, _ *credserver.Container) {
			i.Override("GET "+credserver.RolePath, http.NotFound)
		}},
		Case{Name: "profile-keys-beat-imds", Env: env("AWS_EC2_METADATA_SERVICE_ENDPOINT", "{IMDS}"), Files: files(cfgFile, defConf)},
	)

	add("region",
		Case{Name: "AWS_DEFAULT_REGION", Env: env("AWS_DEFAULT_REGION", "eu-west-2")},
		Case{Name: "profile", Files: files(cfgFile, "[default]\nregion = ap-northeast-1\n")},
		Case{Name: "env-beats-profile", Env: env("AWS_DEFAULT_REGION", "eu-west-2"), Files: files(cfgFile, "[default]\nregion = ap-northeast-1\n")},
		Case{Name: "AWS_PROFILE-region", Env: env("AWS_PROFILE", "dev"), Files: files(cfgFile, devConf)},
		Case{Name: "explicit-profile-region", Profile: "dev", Files: files(cfgFile, "[default]\nregion = us-east-1\n"+devConf)},
		Case{Name: "credentials-file-region", Files: files(credFile, "[default]\nregion = af-south-1\naws_access_key_id = {ID:DEFCRED}\naws_secret_access_key = {SK:DEFCRED}\n")},
		Case{Name: "none"},
		Case{Name: "empty-AWS_DEFAULT_REGION", Env: env("AWS_DEFAULT_REGION", ""), Files: files(cfgFile, "[default]\nregion = ap-northeast-1\n"),
			Exclude: "botocore takes an empty AWS_DEFAULT_REGION as the region \"\"; smithycurl takes an empty variable as unset, as aws-sdk-go-v2 (awsconfig.Settings)"},
		Case{Name: "AWS_REGION-vs-AWS_DEFAULT_REGION", Env: env("AWS_REGION", "us-west-2", "AWS_DEFAULT_REGION", "eu-west-2"),
			Exclude: "botocore reads AWS_DEFAULT_REGION only; smithycurl reads AWS_REGION first, as the AWS CLI v2 and aws-sdk-go-v2 (awsconfig.Settings)"},
	)

	add("settings",
		Case{Name: "max-attempts-env", Env: env("AWS_MAX_ATTEMPTS", "5")},
		Case{Name: "max-attempts-profile", Files: files(cfgFile, "[default]\nmax_attempts = 7\n")},
		Case{Name: "max-attempts-env-beats-profile", Env: env("AWS_MAX_ATTEMPTS", "2"), Files: files(cfgFile, "[default]\nmax_attempts = 7\n")},
		Case{Name: "max-attempts-malformed", Env: env("AWS_MAX_ATTEMPTS", "three")},
		Case{Name: "retry-mode-adaptive", Files: files(cfgFile, "[default]\nretry_mode = adaptive\n")},
		Case{Name: "retry-mode-legacy", Env: env("AWS_RETRY_MODE", "legacy")},
		Case{Name: "fips-env", Env: env("AWS_USE_FIPS_ENDPOINT", "true")},
		Case{Name: "fips-upper-case", Env: env("AWS_USE_FIPS_ENDPOINT", "TRUE")},
		Case{Name: "fips-false-beats-profile", Env: env("AWS_USE_FIPS_ENDPOINT", "false"), Files: files(cfgFile, "[default]\nuse_fips_endpoint = true\n")},
		Case{Name: "dualstack-profile", Profile: "dev", Files: files(cfgFile, devConf+"use_dualstack_endpoint = true\n")},
		Case{Name: "ca-bundle-env-beats-profile", Env: env("AWS_CA_BUNDLE", "/etc/ssl/env.pem"), Files: files(cfgFile, "[default]\nca_bundle = /etc/ssl/profile.pem\n")},
		Case{Name: "ca-bundle-profile", Files: files(cfgFile, "[default]\nca_bundle = /etc/ssl/profile.pem\n")},
		Case{Name: "fips-not-a-boolean", Env: env("AWS_USE_FIPS_ENDPOINT", "yes"),
			Exclude: "botocore reads any value but \"true\" as false; smithycurl refuses one that is not true or false, as aws-sdk-go-v2 (awsconfig.Settings)"},
	)

	add("endpoint",
		Case{Name: "service-variable", Env: env("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000"), Needs: "endpoint_url"},
		Case{Name: "global-variable", Env: env("AWS_ENDPOINT_URL", "http://127.0.0.1:8001"), Needs: "endpoint_url"},
		Case{Name: "service-beats-global", Env: env("AWS_ENDPOINT_URL", "http://127.0.0.1:8001", "AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000"), Needs: "endpoint_url"},
		Case{Name: "profile-endpoint-url", Files: files(cfgFile, "[default]\nendpoint_url = http://127.0.0.1:8002\n"), Needs: "endpoint_url"},
		Case{Name: "services-section", Files: files(cfgFile, "[default]\nservices = local\nendpoint_url = http://127.0.0.1:8002\n[services local]\ndynamodb =\n  endpoint_url = http://127.0.0.1:8003\n"), Needs: "endpoint_url"},
		Case{Name: "env-beats-profile", Env: env("AWS_ENDPOINT_URL", "http://127.0.0.1:8001"), Files: files(cfgFile, "[default]\nendpoint_url = http://127.0.0.1:8002\n"), Needs: "endpoint_url"},
		Case{Name: "ignore-configured", Env: env("AWS_ENDPOINT_URL_DYNAMODB", "http://127.0.0.1:8000", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true"), Needs: "endpoint_url"},
		Case{Name: "ignore-in-profile", Files: files(cfgFile, "[default]\nendpoint_url = http://127.0.0.1:8002\nignore_configured_endpoint_urls = true\n"), Needs: "endpoint_url"},
		Case{Name: "service-name-with-spaces", Service: "Cognito Identity Provider", Env: env("AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER", "http://127.0.0.1:8004"), Needs: "endpoint_url"},
		Case{Name: "other-service-variable-unused", Env: env("AWS_ENDPOINT_URL_S3", "http://127.0.0.1:8005"), Needs: "endpoint_url"},
	)
	return cs
}

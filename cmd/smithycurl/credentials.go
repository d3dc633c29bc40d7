package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/credentials"
	"github.com/smithycurl/smithycurl/endpoints"
	"github.com/smithycurl/smithycurl/model"
)

// masked stands for a secret that is set; an access key id shows its last
// four characters after it, as `aws configure list` does.
const masked = "****************"

// credRow is one line of `smithycurl credentials`: a setting, its value
// (masked for credentials; nil when unset) and where it came from.
type credRow struct {
	Name  string  `json:"name"`
	Value *string `json:"value"`
	From  string  `json:"from,omitempty"`
}

type credReport struct {
	Rows    []credRow `json:"settings"`
	Expires *string   `json:"expires"` // RFC 3339; nil: never, or no credentials
	Error   string    `json:"error,omitempty"`
}

// credentialsCmd shows where the AWS credentials and settings a client
// would use come from, as `aws configure list` does; never a secret.
func credentialsCmd(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("credentials", "credentials [--profile NAME] [--model PATH... [--service ID]] [--json]", stderr)
	var mf modelFlags
	mf.register(fs)
	profile := fs.String("profile", "", "AWS shared config profile (default: $AWS_DEFAULT_PROFILE, $AWS_PROFILE, default)")
	asJSON := fs.Bool("json", false, "print JSON")
	timeout := fs.Duration("timeout", 60*time.Second, "how long finding the credentials may take (container and instance metadata endpoints, STS, SSO)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "smithycurl: credentials takes no arguments (got %q)\n", fs.Arg(0))
		return exitUsage
	}
	cfg, err := awsconfig.Load(awsconfig.Env{})
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	var (
		settings awsconfig.Settings
		m        *model.Model
		svc      *model.Service
	)
	if len(mf.models) > 0 {
		var ok bool
		if m, svc, ok = mf.load(ctx, stderr); !ok {
			return exitUsage
		}
		opts := []client.Option{client.WithAWSConfig(cfg)}
		if *profile != "" {
			opts = append(opts, client.WithProfile(*profile))
		}
		var aws bool
		settings, aws, err = client.AWSSettings(svc, opts...)
		if err == nil && !aws {
			fmt.Fprintf(stderr, "smithycurl: service %s does not sign with aws.auth#sigv4 and is no AWS service: it reads no AWS credentials or settings\n", svc.Shape.ID)
			return exitUsage
		}
	} else {
		settings, err = cfg.Settings(*profile, "")
	}
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}

	var rep credReport
	add := func(name string, value, from string) {
		r := credRow{Name: name, From: from}
		if value != "" {
			r.Value = &value
		}
		rep.Rows = append(rep.Rows, r)
	}
	add("profile", settings.Profile, profileSource(cfg, *profile))

	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	chain := credentials.DefaultChain(credentials.Options{Config: cfg, Profile: *profile, Region: settings.Region.V})
	creds, err := chain.Retrieve(ctx)
	if err != nil {
		rep.Error = err.Error()
		add("access_key", "", "")
		add("secret_key", "", "")
		add("session_token", "", "")
	} else {
		add("access_key", masked+lastFour(creds.AccessKeyID), creds.Source)
		add("secret_key", masked, creds.Source)
		if creds.SessionToken != "" {
			add("session_token", masked, creds.Source)
		} else {
			add("session_token", "", "")
		}
		if !creds.Expires.IsZero() {
			e := creds.Expires.UTC().Format(time.RFC3339)
			rep.Expires = &e
		}
	}
	add("region", settings.Region.V, settings.Region.From)
	endpoint, from := settings.EndpointURL.V, settings.EndpointURL.From
	if endpoint == "" && svc != nil {
		endpoint, from = ruleEndpoint(m, svc, settings, *profile, cfg)
	}
	add("endpoint", endpoint, from)

	if *asJSON {
		b, _ := json.Marshal(rep)
		writeJSON(stdout, b)
	} else {
		printCredReport(stdout, rep)
	}
	if rep.Error != "" {
		fmt.Fprintf(stderr, "smithycurl: %s\n", rep.Error)
		return exitUsage
	}
	return 0
}

// profileSource says what chose the profile.
func profileSource(cfg *awsconfig.Config, flag string) string {
	switch {
	case flag != "":
		return "--profile"
	case cfg.Env.Get("AWS_DEFAULT_PROFILE") != "":
		return "AWS_DEFAULT_PROFILE"
	case cfg.Env.Get("AWS_PROFILE") != "":
		return "AWS_PROFILE"
	}
	return "the default"
}

func lastFour(s string) string {
	if len(s) <= 4 {
		return ""
	}
	return s[len(s)-4:]
}

// ruleEndpoint is the endpoint the service's rules resolve for the
// settings' region, when it has rules and a region.
func ruleEndpoint(m *model.Model, svc *model.Service, s awsconfig.Settings, profile string, cfg *awsconfig.Config) (string, string) {
	if !endpoints.HasRules(svc.Shape) || !s.Region.IsSet() || len(svc.Operations) == 0 {
		return "", ""
	}
	opts := []client.Option{client.WithAWSConfig(cfg), client.WithoutRetries()}
	if profile != "" {
		opts = append(opts, client.WithProfile(profile))
	}
	c, err := client.New(m, svc.Shape.ID, "", opts...)
	if err != nil {
		return "", ""
	}
	defer c.Close()
	ep, err := c.ResolveEndpoint(svc.Operations[0].Name, nil)
	if err != nil {
		return "", ""
	}
	return ep.URL, "the endpoint rules, for the region"
}

func printCredReport(w io.Writer, rep credReport) {
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVALUE\tFROM")
	for _, r := range rep.Rows {
		v, from := "<not set>", r.From
		if r.Value != nil {
			v = *r.Value
		}
		if from == "" {
			from = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Name, v, strings.ReplaceAll(from, "\t", " "))
	}
	tw.Flush()
	switch {
	case rep.Error != "":
	case rep.Expires == nil:
		fmt.Fprintln(w, "expires: never")
	default:
		fmt.Fprintf(w, "expires: %s\n", *rep.Expires)
	}
}

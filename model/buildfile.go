package model

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// buildFileName is the Smithy build configuration file
// (https://smithy.io/2.0/guides/smithy-build-json.html).
const buildFileName = "smithy-build.json"

// buildConfig is the part of smithy-build.json that says which models make
// the build: projections, plugins and output settings do not matter here.
type buildConfig struct {
	Version string   `json:"version"`
	Sources []string `json:"sources"`
	Imports []string `json:"imports"`
	Maven   *struct {
		Dependencies []string `json:"dependencies"`
	} `json:"maven"`
}

// bundledArtifacts are the Maven artifacts whose models are bundled (see
// bundle.go): a build file may list them without anything being missing.
var bundledArtifacts = map[string]bool{
	"software.amazon.smithy:smithy-aws-traits":       true,
	"software.amazon.smithy:smithy-protocol-traits":  true,
	"software.amazon.smithy:smithy-rules-engine":     true,
	"software.amazon.smithy:smithy-validation-model": true,
	"software.amazon.smithy:smithy-waiters":          true,
	"com.disneystreaming.alloy:alloy-core":           true,
}

// isBuildFile reports whether an explicitly named .json file is a build
// configuration: named smithy-build.json, or with "sources" or "imports" and
// no "smithy" (which every JSON AST has).
func isBuildFile(path, text string) bool {
	if filepath.Base(path) == buildFileName {
		return true
	}
	if strings.Contains(text, `"smithy"`) || !(strings.Contains(text, `"sources"`) || strings.Contains(text, `"imports"`)) {
		return false
	}
	var probe map[string]json.RawMessage
	return json.Unmarshal([]byte(stripLineComments(text)), &probe) == nil
}

// addBuildFile adds the models of a smithy-build.json: its sources and
// imports, relative to its folder (directories read whole, as AddPath reads
// a directory without a build file). Without "sources", the model/ folder
// beside it is the source, as with the Smithy Gradle plugin. Maven
// dependencies are not fetched: those whose traits are bundled need nothing,
// any other one is a warning.
func (l *Loader) addBuildFile(path string) error {
	text, _, err := l.read(path)
	if err != nil {
		return err
	}
	var cfg buildConfig
	if err := json.Unmarshal([]byte(stripLineComments(text)), &cfg); err != nil {
		return fmt.Errorf("build file %s: %w", path, err)
	}
	switch cfg.Version {
	case "1.0", "1":
	case "":
		return fmt.Errorf("build file %s: no \"version\" (smithy-build.json needs \"version\": \"1.0\")", path)
	default:
		return fmt.Errorf("build file %s: unsupported version %q (want \"1.0\")", path, cfg.Version)
	}
	dir := filepath.Dir(path)
	paths := append(append([]string(nil), cfg.Sources...), cfg.Imports...)
	if cfg.Sources == nil {
		if info, err := os.Stat(filepath.Join(dir, "model")); err == nil && info.IsDir() {
			paths = append([]string{"model"}, paths...)
		}
	}
	if len(paths) == 0 {
		return fmt.Errorf("build file %s: no \"sources\" or \"imports\", and no model/ folder beside it", path)
	}
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		info, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("build file %s: %w", path, err)
		}
		if info.IsDir() {
			if err := l.addDir(p); err != nil {
				return err
			}
			continue
		}
		src, err := l.readModel(p)
		if err != nil {
			return err
		}
		l.add(src)
	}
	if cfg.Maven != nil {
		for _, dep := range cfg.Maven.Dependencies {
			parts := strings.Split(dep, ":")
			if len(parts) >= 2 && bundledArtifacts[parts[0]+":"+parts[1]] {
				continue
			}
			l.note(SeverityWarning, path, "Maven dependency `%s` is not loaded: smithycurl does not fetch Maven artifacts; add its model files to `imports` or load them with the model", dep)
		}
	}
	return nil
}

// stripLineComments blanks the // comments smithy-build.json allows, outside
// strings, keeping every offset.
func stripLineComments(text string) string {
	if !strings.Contains(text, "//") {
		return text
	}
	b := []byte(text)
	inString, escaped := false, false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

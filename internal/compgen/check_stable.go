package compgen

import (
	"slices"
	"strings"
)

// stableNames reports a component whose stable name is another one's
// default stable name, on which the generated Register would panic. ecs
// names a type by its import path, a dot and its name, and gives it that
// name when it registers, before the Name option renames it: so a stable
// name P.B, for P the package's path, clashes with component B when B
// has no stable name of its own, and when B registers later (Register
// registers in the order of the definitions), whatever its own.
//
// The paths P are Options.ImportPath and, for a package main, "main"
// (its program; its tests see the import path). With neither known, P is
// taken to be the package's name or to end in /name, as paths usually
// do.
func (d *decoder) stableNames(byName map[string]*Component) {
	pkg := d.defs.Package
	var paths []string
	if d.opts.ImportPath != "" {
		paths = append(paths, d.opts.ImportPath)
	}
	if pkg == "main" {
		paths = append(paths, "main")
	}
	guess := len(paths) == 0 && pkg != ""
	order := make(map[string]int, len(d.defs.Components))
	for i, c := range d.defs.Components {
		if _, ok := order[c.Name]; !ok {
			order[c.Name] = i
		}
	}
	for i, c := range d.defs.Components {
		dot := strings.LastIndexByte(c.StableName, '.')
		if dot < 0 {
			continue
		}
		path, name := c.StableName[:dot], c.StableName[dot+1:]
		other := byName[name]
		if other == nil || name == c.Name {
			continue
		}
		switch {
		case slices.Contains(paths, path):
		case guess && (path == pkg || strings.HasSuffix(path, "/"+pkg)):
		default:
			continue
		}
		how := "its import path and type name"
		if guess {
			how = "if the import path, not known here, ends in /" + pkg
		}
		switch {
		case other.StableName == "":
			d.errorf(c.Pos, "component %s: stable name %s is the default stable name of component %s (at %v; %s): Register would panic; choose another name",
				c.Name, quoteClipped(c.StableName), name, other.Pos, how)
		case order[name] > i:
			d.errorf(c.Pos, "component %s: stable name %s is the default stable name of component %s (at %v; %s), which ecs gives it when Register comes to it, after %s, before its own: Register would panic; choose another name",
				c.Name, quoteClipped(c.StableName), name, other.Pos, how, c.Name)
		}
	}
}

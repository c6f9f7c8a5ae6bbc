package backend

import (
	"slices"

	"yui/app/settings"
)

// SaveSite keeps a site the user allowed the browser to open always
// ("Always for this site"), while the preset still points at the backend
// that asked.
func (b *Binding) SaveSite(site string) error {
	return b.change("it asked", nil, func(p *settings.Preset) {
		if !slices.Contains(p.Permissions.BrowserSites, site) && len(p.Permissions.BrowserSites) < settings.MaxBrowserSites {
			p.Permissions.BrowserSites = append(p.Permissions.BrowserSites, site)
		}
	})
}

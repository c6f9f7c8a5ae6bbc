package wardrobe

import "yui/app/view"

// PublishArt publishes look's art for preset id (her look_art topic),
// with her own look options over the look's.
func (r *Room) PublishArt(id, look string) {
	art := r.cfg.Looks.Art(look)
	all := r.cfg.Store.Get()
	if p, ok := all.Preset(id); ok && art.VRM != nil {
		art.VRM.Breathing = p.LookOptions.BreathingOr(art.VRM.Breathing)
	}
	r.cfg.Pages.Publish(id, view.TypeLookArt, view.MustEncode(view.TypeLookArt, art))
}

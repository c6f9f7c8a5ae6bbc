package capture

import (
	"context"
	"fmt"
	"image"
	"log/slog"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/xinerama"
	"github.com/jezek/xgb/xproto"
	"github.com/kbinani/screenshot"

	"yui/app/permission"
)

// X11 is the Source of the X server named by $DISPLAY.
type X11 struct {
	log *slog.Logger
}

// NewX11 returns the X11 source; log may be nil.
func NewX11(log *slog.Logger) *X11 {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &X11{log: log}
}

// Monitors lists the Xinerama screens with RandR names.
func (x *X11) Monitors() ([]Monitor, error) {
	c, err := xgb.NewConn()
	if err != nil {
		return nil, fmt.Errorf("capture: connect to the X server: %w", err)
	}
	defer c.Close()
	if err := xinerama.Init(c); err != nil {
		return nil, fmt.Errorf("capture: xinerama: %w", err)
	}
	r, err := xinerama.QueryScreens(c).Reply()
	if err != nil {
		return nil, fmt.Errorf("capture: xinerama screens: %w", err)
	}
	names := randrNames(c)
	ms := make([]Monitor, 0, len(r.ScreenInfo))
	for i, s := range r.ScreenInfo {
		b := image.Rect(int(s.XOrg), int(s.YOrg), int(s.XOrg)+int(s.Width), int(s.YOrg)+int(s.Height))
		label := names[b]
		if label == "" {
			label = defaultLabel(i)
		}
		ms = append(ms, Monitor{Index: i, Label: label, Bounds: b})
	}
	return ms, nil
}

// randrNames maps monitor geometry to RandR 1.5 monitor names; empty when
// the server lacks RandR 1.5.
func randrNames(c *xgb.Conn) map[image.Rectangle]string {
	names := map[image.Rectangle]string{}
	if randr.Init(c) != nil {
		return names
	}
	v, err := randr.QueryVersion(c, 1, 5).Reply()
	if err != nil || v.MajorVersion < 1 || (v.MajorVersion == 1 && v.MinorVersion < 5) {
		return names
	}
	root := xproto.Setup(c).DefaultScreen(c).Root
	m, err := randr.GetMonitors(c, root, true).Reply()
	if err != nil {
		return names
	}
	for _, mi := range m.Monitors {
		n, err := xproto.GetAtomName(c, mi.Name).Reply()
		if err != nil || n.Name == "" {
			continue
		}
		b := image.Rect(int(mi.X), int(mi.Y), int(mi.X)+int(mi.Width), int(mi.Y)+int(mi.Height))
		if _, dup := names[b]; !dup {
			names[b] = n.Name
		}
	}
	return names
}

// Capture uses up g and captures its monitor.
func (x *X11) Capture(ctx context.Context, g *permission.Grant) (Shot, error) {
	i, err := g.Use()
	if err != nil {
		return Shot{}, fmt.Errorf("capture: %w", err)
	}
	if err := ctx.Err(); err != nil {
		return Shot{}, fmt.Errorf("capture: monitor %d: %w", i, err)
	}
	ms, err := x.Monitors()
	if err != nil {
		return Shot{}, err
	}
	m, ok := Find(ms, i)
	if !ok {
		return Shot{}, fmt.Errorf("capture: monitor %d of %d: %w", i, len(ms), ErrNoMonitor)
	}
	img, err := screenshot.CaptureDisplay(i)
	if err != nil {
		return Shot{}, fmt.Errorf("capture: monitor %d: %w", i, err)
	}
	x.log.Info("capture.taken", "monitor", i, "width", img.Rect.Dx(), "height", img.Rect.Dy())
	return Shot{Monitor: m, Image: img}, nil
}

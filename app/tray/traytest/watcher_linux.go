package traytest

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"strings"
	"sync"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

const (
	watcherName  = "org.kde.StatusNotifierWatcher"
	watcherPath  = dbus.ObjectPath("/StatusNotifierWatcher")
	itemIface    = "org.kde.StatusNotifierItem"
	menuIface    = "com.canonical.dbusmenu"
	propsIface   = "org.freedesktop.DBus.Properties"
	watcherIface = "org.kde.StatusNotifierWatcher"
)

// Watcher is the StatusNotifierWatcher stand-in and a host's view of the
// items that register with it.
type Watcher struct {
	conn  *dbus.Conn
	props *prop.Properties

	mu      sync.Mutex
	items   []*Item
	changed chan struct{} // closed and replaced on every registration or menu signal
}

// NewWatcher connects to the bus at addr, owns the watcher's name and
// serves it until Close.
func NewWatcher(addr string) (*Watcher, error) {
	conn, err := dbus.Connect(addr)
	if err != nil {
		return nil, fmt.Errorf("traytest: connect %s: %w", addr, err)
	}
	w := &Watcher{conn: conn, changed: make(chan struct{})}
	if err := conn.Export(watcherMethods{w}, watcherPath, watcherIface); err != nil {
		conn.Close()
		return nil, fmt.Errorf("traytest: export watcher: %w", err)
	}
	w.props, err = prop.Export(conn, watcherPath, map[string]map[string]*prop.Prop{
		watcherIface: {
			"RegisteredStatusNotifierItems":  {Value: []string{}, Emit: prop.EmitTrue},
			"IsStatusNotifierHostRegistered": {Value: true, Emit: prop.EmitTrue},
			"ProtocolVersion":                {Value: int32(0), Emit: prop.EmitTrue},
		},
	})
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("traytest: export watcher properties: %w", err)
	}
	// Menu changes of any item wake waiters.
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(menuIface)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("traytest: match menu signals: %w", err)
	}
	if err := conn.AddMatchSignal(dbus.WithMatchInterface(itemIface)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("traytest: match item signals: %w", err)
	}
	sigs := make(chan *dbus.Signal, 64)
	conn.Signal(sigs)
	go func() {
		for range sigs {
			w.wake()
		}
	}()
	rep, err := conn.RequestName(watcherName, dbus.NameFlagDoNotQueue)
	if err != nil || rep != dbus.RequestNameReplyPrimaryOwner {
		conn.Close()
		return nil, fmt.Errorf("traytest: own %s: %v (reply %d)", watcherName, err, rep)
	}
	return w, nil
}

// Close leaves the bus.
func (w *Watcher) Close() error { return w.conn.Close() }

func (w *Watcher) wake() {
	w.mu.Lock()
	close(w.changed)
	w.changed = make(chan struct{})
	w.mu.Unlock()
}

type watcherMethods struct{ w *Watcher }

// RegisterStatusNotifierItem records an item: service is a bus name, or
// an object path on the sender's connection (what fyne.io/systray sends).
func (m watcherMethods) RegisterStatusNotifierItem(sender dbus.Sender, service string) *dbus.Error {
	it := &Item{w: m.w, Service: string(sender), Path: "/StatusNotifierItem"}
	if strings.HasPrefix(service, "/") {
		it.Path = dbus.ObjectPath(service)
	} else {
		it.Service = service
	}
	m.w.mu.Lock()
	m.w.items = append(m.w.items, it)
	names := make([]string, len(m.w.items))
	for i, x := range m.w.items {
		names[i] = x.Service + string(x.Path)
	}
	m.w.mu.Unlock()
	m.w.props.SetMust(watcherIface, "RegisteredStatusNotifierItems", names)
	m.w.conn.Emit(watcherPath, watcherIface+".StatusNotifierItemRegistered", it.Service+string(it.Path))
	m.w.wake()
	return nil
}

// RegisterStatusNotifierHost accepts a host (there is none but this one).
func (m watcherMethods) RegisterStatusNotifierHost(service string) *dbus.Error { return nil }

// Items returns the items registered so far.
func (w *Watcher) Items() []*Item {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*Item(nil), w.items...)
}

// Wait blocks until cond is true, re-checking it after every registration
// and every menu or item signal, or until ctx ends.
func (w *Watcher) Wait(ctx context.Context, cond func() bool) error {
	for {
		w.mu.Lock()
		ch := w.changed
		w.mu.Unlock()
		if cond() {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// WaitItem waits for the first item to register.
func (w *Watcher) WaitItem(ctx context.Context) (*Item, error) {
	if err := w.Wait(ctx, func() bool { return len(w.Items()) > 0 }); err != nil {
		return nil, fmt.Errorf("traytest: no item registered: %w", err)
	}
	return w.Items()[0], nil
}

// Item is a registered StatusNotifierItem.
type Item struct {
	w       *Watcher
	Service string
	Path    dbus.ObjectPath
}

func (it *Item) obj() dbus.BusObject { return it.w.conn.Object(it.Service, it.Path) }

// Property reads one org.kde.StatusNotifierItem property.
func (it *Item) Property(ctx context.Context, name string) (dbus.Variant, error) {
	var v dbus.Variant
	err := it.obj().CallWithContext(ctx, propsIface+".Get", 0, itemIface, name).Store(&v)
	if err != nil {
		return v, fmt.Errorf("traytest: item property %s: %w", name, err)
	}
	return v, nil
}

// Icon decodes the largest IconPixmap (ARGB32, network byte order).
func (it *Item) Icon(ctx context.Context) (image.Image, error) {
	v, err := it.Property(ctx, "IconPixmap")
	if err != nil {
		return nil, err
	}
	var pixmaps []struct {
		W, H int32
		Pix  []byte
	}
	if err := dbus.Store([]any{v.Value()}, &pixmaps); err != nil {
		return nil, fmt.Errorf("traytest: IconPixmap: %w", err)
	}
	best := -1
	for i, p := range pixmaps {
		if best < 0 || p.W*p.H > pixmaps[best].W*pixmaps[best].H {
			best = i
		}
	}
	if best < 0 || pixmaps[best].W <= 0 {
		return nil, errors.New("traytest: the item has no icon pixmap")
	}
	p := pixmaps[best]
	if len(p.Pix) != int(p.W*p.H*4) {
		return nil, fmt.Errorf("traytest: icon %dx%d has %d bytes", p.W, p.H, len(p.Pix))
	}
	img := image.NewNRGBA(image.Rect(0, 0, int(p.W), int(p.H)))
	for i := 0; i < int(p.W*p.H); i++ {
		a, r, g, b := p.Pix[4*i], p.Pix[4*i+1], p.Pix[4*i+2], p.Pix[4*i+3]
		img.SetNRGBA(i%int(p.W), i/int(p.W), color.NRGBA{r, g, b, a})
	}
	return img, nil
}

// MenuItem is one entry of the item's menu as a host reads it.
type MenuItem struct {
	ID      int32
	Label   string
	Type    string // "separator" or ""
	Toggle  string // "checkmark" or ""
	Checked bool
	Enabled bool
	Visible bool
}

func (m MenuItem) String() string {
	switch {
	case m.Type == "separator":
		return "---"
	case m.Toggle == "checkmark" && m.Checked:
		return "[x] " + m.Label
	case m.Toggle == "checkmark":
		return "[ ] " + m.Label
	}
	return m.Label
}

type layout struct {
	ID       int32
	Props    map[string]dbus.Variant
	Children []dbus.Variant
}

// Menu reads the whole menu (GetLayout from the root), top level in order.
func (it *Item) Menu(ctx context.Context) ([]MenuItem, error) {
	v, err := it.Property(ctx, "Menu")
	if err != nil {
		return nil, err
	}
	path, ok := v.Value().(dbus.ObjectPath)
	if !ok {
		return nil, fmt.Errorf("traytest: Menu property is %T", v.Value())
	}
	var rev uint32
	var root layout
	call := it.w.conn.Object(it.Service, path).CallWithContext(ctx, menuIface+".GetLayout", 0, int32(0), int32(-1), []string{})
	if err := call.Store(&rev, &root); err != nil {
		return nil, fmt.Errorf("traytest: GetLayout: %w", err)
	}
	var out []MenuItem
	for _, c := range root.Children {
		var l layout
		if err := dbus.Store([]any{c.Value()}, &l); err != nil {
			return nil, fmt.Errorf("traytest: menu child: %w", err)
		}
		out = append(out, menuItem(l))
	}
	return out, nil
}

func menuItem(l layout) MenuItem {
	m := MenuItem{ID: l.ID, Enabled: true, Visible: true}
	str := func(k string) string { s, _ := l.Props[k].Value().(string); return s }
	m.Label, m.Type, m.Toggle = str("label"), str("type"), str("toggle-type")
	if v, ok := l.Props["toggle-state"].Value().(int32); ok {
		m.Checked = v == 1
	}
	if v, ok := l.Props["enabled"].Value().(bool); ok {
		m.Enabled = v
	}
	if v, ok := l.Props["visible"].Value().(bool); ok {
		m.Visible = v
	}
	return m
}

// WaitMenu waits until the menu satisfies cond and returns it.
func (it *Item) WaitMenu(ctx context.Context, cond func([]MenuItem) bool) ([]MenuItem, error) {
	var last []MenuItem
	var lastErr error
	err := it.w.Wait(ctx, func() bool {
		last, lastErr = it.Menu(ctx)
		return lastErr == nil && cond(last)
	})
	if err != nil {
		return last, fmt.Errorf("traytest: menu %v (%v): %w", last, lastErr, err)
	}
	return last, nil
}

// Click sends dbusmenu's "clicked" event for the entry labelled label.
func (it *Item) Click(ctx context.Context, label string) error {
	items, err := it.Menu(ctx)
	if err != nil {
		return err
	}
	for _, m := range items {
		if m.Label == label && m.Type != "separator" {
			v, _ := it.Property(ctx, "Menu")
			path := v.Value().(dbus.ObjectPath)
			return it.w.conn.Object(it.Service, path).CallWithContext(ctx, menuIface+".Event", 0,
				m.ID, "clicked", dbus.MakeVariant(""), uint32(0)).Err
		}
	}
	return fmt.Errorf("traytest: no menu entry %q in %v", label, items)
}

// Opened sends dbusmenu's "opened" event for the root menu, as a host
// does when it shows the menu.
func (it *Item) Opened(ctx context.Context) error {
	v, err := it.Property(ctx, "Menu")
	if err != nil {
		return err
	}
	path, _ := v.Value().(dbus.ObjectPath)
	return it.w.conn.Object(it.Service, path).CallWithContext(ctx, menuIface+".Event", 0,
		int32(0), "opened", dbus.MakeVariant(""), uint32(0)).Err
}

// Labels lists the menu as text, one entry per element ("[x] Yui", "---").
func Labels(items []MenuItem) []string {
	out := make([]string, len(items))
	for i, m := range items {
		out[i] = m.String()
	}
	return out
}

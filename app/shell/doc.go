// Package shell is the thin Wails v2 window shell: the only package that
// imports Wails. A window process (`yui window --role pet ...`) runs one
// Shell: it dials the core's view server as the "shell" role, opens one
// frameless, transparent, always-on-top window at the place the core says,
// hands the page the URL it connects to the core with (the Bridge binding),
// applies the page's click-through regions as the X11 input shape, reports
// moves back to the core, and quits when the core goes away.
package shell

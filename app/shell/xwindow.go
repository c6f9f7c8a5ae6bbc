package shell

import "github.com/jezek/xgb/xproto"

func xwindow(id uint32) xproto.Window { return xproto.Window(id) }

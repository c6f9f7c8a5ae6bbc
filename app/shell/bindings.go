package shell

import (
	"io/fs"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
)

// GenerateBindings is what a `wails generate module` build runs: Wails
// writes frontend/wailsjs for the bound Bridge and exits. It opens no
// window and needs no core.
func GenerateBindings(assets fs.FS) error {
	return wails.Run(&options.App{
		Title:       "yui bindings",
		AssetServer: &assetserver.Options{Assets: assets},
		Bind:        []any{&Bridge{}},
	})
}

package audio

import "fmt"

func errBadFormat(f Format) error {
	return fmt.Errorf("audio: unsupported format %d Hz × %d channels", f.Rate, f.Channels)
}

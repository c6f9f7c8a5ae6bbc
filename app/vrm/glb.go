package vrm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// GLB container constants (glTF 2.0, "Binary glTF Layout").
const (
	glbMagic     = 0x46546c67 // "glTF"
	chunkJSON    = 0x4e4f534a // "JSON"
	chunkBIN     = 0x004e4942 // "BIN\0"
	headerLen    = 12
	chunkHdrLen  = 8
	maxJSONBytes = 16 << 20 // the JSON chunk of a real model is well under 1 MiB
)

// container is what the GLB's framing says: the JSON chunk's bytes and the
// binary chunk's length (-1 when there is none).
type container struct {
	json   []byte
	binLen int64
}

// readContainer checks the GLB header and chunk framing of a file of size
// bytes and reads its JSON chunk.
func readContainer(r io.ReaderAt, size int64) (container, error) {
	var h [headerLen + chunkHdrLen]byte
	if size < int64(len(h)) {
		return container{}, fmt.Errorf("not a VRM model: the file is %d bytes, too short for a glTF binary (.glb/.vrm)", size)
	}
	if _, err := r.ReadAt(h[:], 0); err != nil {
		return container{}, fmt.Errorf("read the header: %w", err)
	}
	if binary.LittleEndian.Uint32(h[0:]) != glbMagic {
		if h[0] == '{' {
			return container{}, errors.New("not a VRM model: this is a glTF text file (.gltf); a VRM model is a binary glTF (.vrm)")
		}
		return container{}, errors.New("not a VRM model: the file does not start as a glTF binary (.glb/.vrm) does")
	}
	if v := binary.LittleEndian.Uint32(h[4:]); v != 2 {
		return container{}, fmt.Errorf("not a usable VRM model: glTF binary version %d (only version 2 is read)", v)
	}
	declared := int64(binary.LittleEndian.Uint32(h[8:]))
	switch {
	case declared > size:
		return container{}, fmt.Errorf("the file is cut short: %d bytes of the %d its header declares (an incomplete download or copy?)", size, declared)
	case declared < size:
		return container{}, fmt.Errorf("the file is damaged: %d bytes, but its header declares %d", size, declared)
	}
	jsonLen := int64(binary.LittleEndian.Uint32(h[12:]))
	if binary.LittleEndian.Uint32(h[16:]) != chunkJSON {
		return container{}, errors.New("the file is damaged: its first chunk is not the glTF JSON")
	}
	if jsonLen > size-int64(len(h)) {
		return container{}, fmt.Errorf("the file is cut short: its JSON chunk declares %d bytes, more than the file holds", jsonLen)
	}
	if jsonLen > maxJSONBytes {
		return container{}, fmt.Errorf("the model's glTF JSON is %d bytes (at most %d are read)", jsonLen, maxJSONBytes)
	}
	js := make([]byte, jsonLen)
	if _, err := r.ReadAt(js, int64(len(h))); err != nil {
		return container{}, fmt.Errorf("read the JSON chunk: %w", err)
	}
	c := container{json: js, binLen: -1}
	next := int64(len(h)) + pad4(jsonLen)
	if next+chunkHdrLen <= size {
		var ch [chunkHdrLen]byte
		if _, err := r.ReadAt(ch[:], next); err != nil {
			return container{}, fmt.Errorf("read the binary chunk: %w", err)
		}
		l := int64(binary.LittleEndian.Uint32(ch[0:]))
		if binary.LittleEndian.Uint32(ch[4:]) != chunkBIN {
			return container{}, errors.New("the file is damaged: its second chunk is not the glTF binary chunk")
		}
		if next+chunkHdrLen+l > size {
			return container{}, fmt.Errorf("the file is cut short: its binary chunk declares %d bytes, more than the file holds", l)
		}
		c.binLen = l
	} else if next < size {
		return container{}, errors.New("the file is damaged: stray bytes after the JSON chunk")
	}
	return c, nil
}

func pad4(n int64) int64 { return (n + 3) &^ 3 }

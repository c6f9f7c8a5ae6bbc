package vrm

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
)

// Versions Info.Version reports.
const (
	Version0 = "0.x" // the VRM extension (specVersion 0.0)
	Version1 = "1.0" // VRMC_vrm
)

// Info is what Inspect learned about a usable model.
type Info struct {
	// Version is Version0 or Version1.
	Version string
	// Name is the model's own name (VRM 1.0 meta.name, 0.x meta.title);
	// may be empty.
	Name string
	// Expressions are the model's expression names in VRM 1.0 terms
	// (0.x presets are renamed: joy → happy, sorrow → sad, fun → relaxed,
	// a → aa, i → ih, u → ou, e → ee, o → oh, blink_l → blinkLeft,
	// blink_r → blinkRight); custom ones by their own name. Sorted.
	Expressions []string
	// Bones are the humanoid bones the model maps, sorted.
	Bones []string
	// LookAt reports a look-at (eyes that can follow a point).
	LookAt bool
	// SpringBones reports swaying parts (hair, clothes).
	SpringBones bool
}

// Has reports whether the model has expression name.
func (i Info) Has(name string) bool { return slices.Contains(i.Expressions, name) }

// RequiredBones1 are the humanoid bones VRM 1.0 requires; VRM 0.x also
// requires chest and neck (RequiredBones0).
var RequiredBones1 = []string{
	"hips", "spine", "head",
	"leftUpperLeg", "leftLowerLeg", "leftFoot", "rightUpperLeg", "rightLowerLeg", "rightFoot",
	"leftUpperArm", "leftLowerArm", "leftHand", "rightUpperArm", "rightLowerArm", "rightHand",
}

// RequiredBones0 are the humanoid bones VRM 0.x requires.
var RequiredBones0 = append(slices.Clone(RequiredBones1), "chest", "neck")

// v0Presets renames VRM 0.x blend shape presets to VRM 1.0 expressions.
var v0Presets = map[string]string{
	"joy": "happy", "angry": "angry", "sorrow": "sad", "fun": "relaxed", "surprised": "surprised",
	"a": "aa", "i": "ih", "u": "ou", "e": "ee", "o": "oh",
	"blink": "blink", "blink_l": "blinkLeft", "blink_r": "blinkRight",
	"lookup": "lookUp", "lookdown": "lookDown", "lookleft": "lookLeft", "lookright": "lookRight", "neutral": "neutral",
}

// gltf is the part of the glTF JSON Inspect reads.
type gltf struct {
	Asset struct {
		Version string `json:"version"`
	} `json:"asset"`
	Buffers []struct {
		URI        string `json:"uri"`
		ByteLength int64  `json:"byteLength"`
	} `json:"buffers"`
	BufferViews []struct {
		Buffer     int   `json:"buffer"`
		ByteOffset int64 `json:"byteOffset"`
		ByteLength int64 `json:"byteLength"`
	} `json:"bufferViews"`
	Images []struct {
		URI        string `json:"uri"`
		BufferView *int   `json:"bufferView"`
	} `json:"images"`
	Nodes []struct {
		Children []int `json:"children"`
		Mesh     *int  `json:"mesh"`
	} `json:"nodes"`
	Meshes     []json.RawMessage          `json:"meshes"`
	Animations []json.RawMessage          `json:"animations"`
	Extensions map[string]json.RawMessage `json:"extensions"`
}

type vrm1 struct {
	SpecVersion string `json:"specVersion"`
	Meta        struct {
		Name string `json:"name"`
	} `json:"meta"`
	Humanoid *struct {
		HumanBones map[string]struct {
			Node *int `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	LookAt      json.RawMessage `json:"lookAt"`
	Expressions struct {
		Preset map[string]json.RawMessage `json:"preset"`
		Custom map[string]json.RawMessage `json:"custom"`
	} `json:"expressions"`
}

type vrm0 struct {
	SpecVersion string `json:"specVersion"`
	Meta        struct {
		Title string `json:"title"`
	} `json:"meta"`
	Humanoid *struct {
		HumanBones []struct {
			Bone string `json:"bone"`
			Node *int   `json:"node"`
		} `json:"humanBones"`
	} `json:"humanoid"`
	FirstPerson *struct {
		LookAtTypeName string `json:"lookAtTypeName"`
	} `json:"firstPerson"`
	BlendShapeMaster struct {
		BlendShapeGroups []struct {
			Name       string `json:"name"`
			PresetName string `json:"presetName"`
		} `json:"blendShapeGroups"`
	} `json:"blendShapeMaster"`
	SecondaryAnimation *struct {
		BoneGroups []json.RawMessage `json:"boneGroups"`
	} `json:"secondaryAnimation"`
}

// Inspect checks that r (size bytes) is a VRM model the pet page can show
// and says what it has. See the package doc for what is checked.
func Inspect(r io.ReaderAt, size int64) (Info, error) {
	g, err := readGLTF(r, size)
	if err != nil {
		return Info{}, err
	}
	if raw, ok := g.Extensions["VRMC_vrm"]; ok {
		return inspect1(g, raw)
	}
	if raw, ok := g.Extensions["VRM"]; ok {
		return inspect0(g, raw)
	}
	if _, ok := g.Extensions["VRMC_vrm_animation"]; ok {
		return Info{}, errors.New("not a VRM model: this is a VRM animation (.vrma); put it in the look folder beside model.vrm")
	}
	return Info{}, errors.New("not a VRM model: the glTF has no VRM extension (VRMC_vrm or VRM); export it as VRM from VRoid Studio, UniVRM or Blender's VRM add-on")
}

// InspectAnimation checks that r is a VRM animation (.vrma) with at least
// one animation on humanoid bones.
func InspectAnimation(r io.ReaderAt, size int64) error {
	g, err := readGLTF(r, size)
	if err != nil {
		return err
	}
	raw, ok := g.Extensions["VRMC_vrm_animation"]
	if !ok {
		return errors.New("not a VRM animation: the glTF has no VRMC_vrm_animation extension")
	}
	var a struct {
		Humanoid *struct {
			HumanBones map[string]struct {
				Node *int `json:"node"`
			} `json:"humanBones"`
		} `json:"humanoid"`
	}
	if err := json.Unmarshal(raw, &a); err != nil {
		return fmt.Errorf("the VRM animation extension is not valid: %v", err)
	}
	if a.Humanoid == nil || len(a.Humanoid.HumanBones) == 0 {
		return errors.New("the VRM animation names no humanoid bones")
	}
	for name, b := range a.Humanoid.HumanBones {
		if b.Node == nil || *b.Node < 0 || *b.Node >= len(g.Nodes) {
			return fmt.Errorf("the VRM animation's bone %q points to no node", name)
		}
	}
	if len(g.Animations) == 0 {
		return errors.New("the VRM animation holds no animation")
	}
	return nil
}

// readGLTF reads and checks the container and the glTF JSON's references.
func readGLTF(r io.ReaderAt, size int64) (gltf, error) {
	c, err := readContainer(r, size)
	if err != nil {
		return gltf{}, err
	}
	var g gltf
	if err := json.Unmarshal(c.json, &g); err != nil {
		return gltf{}, fmt.Errorf("the file is damaged: its glTF JSON does not parse (%v)", err)
	}
	if !strings.HasPrefix(g.Asset.Version, "2.") {
		return gltf{}, fmt.Errorf("not a usable model: glTF version %q (only 2.x is read)", g.Asset.Version)
	}
	bufLen := make([]int64, len(g.Buffers))
	for i, b := range g.Buffers {
		switch {
		case b.URI == "" && i == 0:
			if c.binLen < 0 {
				return gltf{}, errors.New("the file is damaged: its buffer has no binary chunk")
			}
			if b.ByteLength > c.binLen {
				return gltf{}, fmt.Errorf("the file is damaged: its buffer declares %d bytes, the binary chunk holds %d", b.ByteLength, c.binLen)
			}
		case strings.HasPrefix(b.URI, "data:"):
		default:
			return gltf{}, fmt.Errorf("the model refers to an outside file (%q); export it as one .vrm file", cutURI(b.URI))
		}
		bufLen[i] = b.ByteLength
	}
	for i, v := range g.BufferViews {
		if v.Buffer < 0 || v.Buffer >= len(g.Buffers) {
			return gltf{}, fmt.Errorf("the file is damaged: buffer view %d points to no buffer", i)
		}
		if v.ByteOffset < 0 || v.ByteLength < 0 || v.ByteOffset+v.ByteLength > bufLen[v.Buffer] {
			return gltf{}, fmt.Errorf("the file is damaged: buffer view %d lies outside its buffer", i)
		}
	}
	for i, im := range g.Images {
		switch {
		case im.BufferView != nil:
			if *im.BufferView < 0 || *im.BufferView >= len(g.BufferViews) {
				return gltf{}, fmt.Errorf("the file is damaged: image %d points to no buffer view", i)
			}
		case strings.HasPrefix(im.URI, "data:"):
		default:
			return gltf{}, fmt.Errorf("the model refers to an outside image (%q); export it as one .vrm file", cutURI(im.URI))
		}
	}
	for i, n := range g.Nodes {
		for _, ch := range n.Children {
			if ch < 0 || ch >= len(g.Nodes) {
				return gltf{}, fmt.Errorf("the file is damaged: node %d has a child that does not exist", i)
			}
		}
		if n.Mesh != nil && (*n.Mesh < 0 || *n.Mesh >= len(g.Meshes)) {
			return gltf{}, fmt.Errorf("the file is damaged: node %d points to no mesh", i)
		}
	}
	return g, nil
}

func inspect1(g gltf, raw json.RawMessage) (Info, error) {
	var v vrm1
	if err := json.Unmarshal(raw, &v); err != nil {
		return Info{}, fmt.Errorf("the VRM extension is not valid: %v", err)
	}
	if !strings.HasPrefix(v.SpecVersion, "1.") {
		return Info{}, fmt.Errorf("VRM version %q is not one this version reads (1.0 and 0.x)", v.SpecVersion)
	}
	if len(g.Meshes) == 0 {
		return Info{}, errors.New("the model has no meshes: nothing to draw")
	}
	info := Info{Version: Version1, Name: strings.TrimSpace(v.Meta.Name), LookAt: len(v.LookAt) > 0 && string(v.LookAt) != "null"}
	if v.Humanoid == nil {
		return Info{}, errors.New("the model has no humanoid: VRM needs one to pose her")
	}
	nodes := map[int]string{}
	for name, b := range v.Humanoid.HumanBones {
		if b.Node == nil || *b.Node < 0 || *b.Node >= len(g.Nodes) {
			return Info{}, fmt.Errorf("the humanoid bone %q points to no node", name)
		}
		if other, dup := nodes[*b.Node]; dup {
			return Info{}, fmt.Errorf("the humanoid bones %q and %q are the same node", min(name, other), max(name, other))
		}
		nodes[*b.Node] = name
		info.Bones = append(info.Bones, name)
	}
	if err := missingBones(info.Bones, RequiredBones1); err != nil {
		return Info{}, err
	}
	for name := range v.Expressions.Preset {
		info.Expressions = append(info.Expressions, name)
	}
	for name := range v.Expressions.Custom {
		if !slices.Contains(info.Expressions, name) {
			info.Expressions = append(info.Expressions, name)
		}
	}
	_, info.SpringBones = g.Extensions["VRMC_springBone"]
	sort.Strings(info.Bones)
	sort.Strings(info.Expressions)
	return info, nil
}

func inspect0(g gltf, raw json.RawMessage) (Info, error) {
	var v vrm0
	if err := json.Unmarshal(raw, &v); err != nil {
		return Info{}, fmt.Errorf("the VRM extension is not valid: %v", err)
	}
	if v.SpecVersion != "" && !strings.HasPrefix(v.SpecVersion, "0.") {
		return Info{}, fmt.Errorf("VRM version %q is not one this version reads (1.0 and 0.x)", v.SpecVersion)
	}
	if len(g.Meshes) == 0 {
		return Info{}, errors.New("the model has no meshes: nothing to draw")
	}
	info := Info{Version: Version0, Name: strings.TrimSpace(v.Meta.Title)}
	if v.Humanoid == nil {
		return Info{}, errors.New("the model has no humanoid: VRM needs one to pose her")
	}
	nodes := map[int]string{}
	for _, b := range v.Humanoid.HumanBones {
		if b.Node == nil || *b.Node < 0 || *b.Node >= len(g.Nodes) {
			return Info{}, fmt.Errorf("the humanoid bone %q points to no node", b.Bone)
		}
		if slices.Contains(info.Bones, b.Bone) {
			return Info{}, fmt.Errorf("the humanoid bone %q is mapped twice", b.Bone)
		}
		if other, dup := nodes[*b.Node]; dup {
			return Info{}, fmt.Errorf("the humanoid bones %q and %q are the same node", min(b.Bone, other), max(b.Bone, other))
		}
		nodes[*b.Node] = b.Bone
		info.Bones = append(info.Bones, b.Bone)
	}
	if err := missingBones(info.Bones, RequiredBones0); err != nil {
		return Info{}, err
	}
	for _, gr := range v.BlendShapeMaster.BlendShapeGroups {
		name := v0Presets[strings.ToLower(gr.PresetName)]
		if name == "" {
			name = gr.Name
		}
		if name != "" && !slices.Contains(info.Expressions, name) {
			info.Expressions = append(info.Expressions, name)
		}
	}
	info.LookAt = v.FirstPerson != nil && v.FirstPerson.LookAtTypeName != ""
	info.SpringBones = v.SecondaryAnimation != nil && len(v.SecondaryAnimation.BoneGroups) > 0
	sort.Strings(info.Bones)
	sort.Strings(info.Expressions)
	return info, nil
}

func missingBones(have, required []string) error {
	var miss []string
	for _, b := range required {
		if !slices.Contains(have, b) {
			miss = append(miss, b)
		}
	}
	if len(miss) == 0 {
		return nil
	}
	return fmt.Errorf("the humanoid lacks required bones: %s", strings.Join(miss, ", "))
}

// cutURI keeps a URI from the file short (and never a whole data: URI).
func cutURI(u string) string {
	if len(u) > 80 {
		return u[:80] + "…"
	}
	return u
}

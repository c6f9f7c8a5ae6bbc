package relation

import (
	"cmp"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"yui/app/atomicfile"
)

// FileName is the standings file's name in the config directory.
const FileName = "relations.json"

// MaxReason bounds the reason kept beside a standing, in characters.
const MaxReason = 200

// User is the target that names the user.
const User = "user"

// Standing is one character's feeling toward one target.
type Standing struct {
	// Target is "user" or the other character's preset id.
	Target string `json:"target"`
	// Value is -100..100; Band names it.
	Value int `json:"value"`
	// Reason is the last call's reason ("" when it gave none).
	Reason string `json:"reason,omitempty"`
	// At is when it last changed.
	At time.Time `json:"at"`
}

// Band is the standing's band name.
func (s Standing) Band() string { return Band(s.Value) }

// file is what relations.json holds: preset id → target → standing.
type file struct {
	Version   int                            `json:"version"`
	Standings map[string]map[string]Standing `json:"standings"`
}

// Config is where a Store keeps its file.
type Config struct {
	// Path is the file (normally <config dir>/relations.json); "" keeps
	// the standings in memory only.
	Path string
	// Log receives relations.corrupt, relations.save_failed; nil discards.
	Log *slog.Logger
	// OnChange hears a character whose standings changed (after the change
	// is in memory, before it is on disk), on the changing goroutine; nil
	// ignores.
	OnChange func(preset string)
	// Now is the clock; nil is time.Now.
	Now func() time.Time
}

// Store holds every standing; see the package doc.
type Store struct {
	cfg  Config
	log  *slog.Logger
	save func(file) error

	mu    sync.Mutex
	data  map[string]map[string]Standing
	jf    atomicfile.JSONFile[file]
	dirty bool

	kick   chan struct{}
	done   chan struct{}
	closed chan struct{}
	once   sync.Once
}

// Open reads the file (a missing or corrupt one is no standings) and
// starts the store's writer. A read that fails otherwise is returned with
// a usable, empty store that never saves over the file it could not read.
func Open(cfg Config) (*Store, error) {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	lg := cfg.Log
	if lg == nil {
		lg = slog.New(slog.DiscardHandler)
	}
	s := &Store{
		cfg:    cfg,
		log:    lg,
		data:   map[string]map[string]Standing{},
		kick:   make(chan struct{}, 1),
		done:   make(chan struct{}),
		closed: make(chan struct{}),
	}
	s.jf = atomicfile.JSONFile[file]{Path: cfg.Path, Pkg: "relation", What: "standings", Event: "relations", Log: lg, Check: checkFile}
	s.save = s.writeFile
	if cfg.Path == "" {
		s.save = func(file) error { return nil }
		go s.writer()
		return s, nil
	}
	v, found, err := s.jf.Load()
	if found {
		s.data = v.Standings
	}
	go s.writer()
	return s, err
}

// checkFile refuses a file whose values are out of range.
func checkFile(f *file) error {
	if f.Version != 1 {
		return fmt.Errorf("version %d (this build reads 1)", f.Version)
	}
	if f.Standings == nil {
		f.Standings = map[string]map[string]Standing{}
	}
	for _, m := range f.Standings {
		for k, st := range m {
			if st.Value < MinStanding || st.Value > MaxStanding || st.Target != k {
				return fmt.Errorf("standing %q out of range", k)
			}
		}
	}
	return nil
}

// Rate moves preset's standing toward target by delta (clamped to the
// standing's range) and returns it. It never waits on the disk.
func (s *Store) Rate(preset, target string, delta int, reason string) Standing {
	s.mu.Lock()
	m := s.data[preset]
	if m == nil {
		m = map[string]Standing{}
		s.data[preset] = m
	}
	st := m[target]
	st.Target = target
	st.Value = clamp(st.Value + delta)
	st.Reason = cut(reason, MaxReason)
	st.At = s.cfg.Now()
	m[target] = st
	s.changedLocked()
	s.mu.Unlock()
	s.changed(preset)
	return st
}

// Get is preset's standing toward target (zero, with Target set, when
// none is kept).
func (s *Store) Get(preset, target string) Standing {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.data[preset][target]
	if !ok {
		return Standing{Target: target}
	}
	return st
}

// Standings are preset's standings, the user first, then by target.
func (s *Store) Standings(preset string) []Standing {
	s.mu.Lock()
	out := slices.Collect(maps.Values(s.data[preset]))
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Standing) int {
		if (a.Target == User) != (b.Target == User) {
			if a.Target == User {
				return -1
			}
			return 1
		}
		return cmp.Compare(a.Target, b.Target)
	})
	return out
}

// Reset forgets preset's standing toward target; it reports whether one
// was kept.
func (s *Store) Reset(preset, target string) bool {
	s.mu.Lock()
	_, ok := s.data[preset][target]
	if ok {
		delete(s.data[preset], target)
		if len(s.data[preset]) == 0 {
			delete(s.data, preset)
		}
		s.changedLocked()
	}
	s.mu.Unlock()
	if ok {
		s.changed(preset)
	}
	return ok
}

// Forget drops every standing of preset and every standing toward it
// (the character was removed).
func (s *Store) Forget(preset string) {
	s.mu.Lock()
	var touched []string
	if _, ok := s.data[preset]; ok {
		delete(s.data, preset)
		touched = append(touched, preset)
	}
	for p, m := range s.data {
		if _, ok := m[preset]; ok {
			delete(m, preset)
			touched = append(touched, p)
		}
	}
	if len(touched) > 0 {
		s.changedLocked()
	}
	s.mu.Unlock()
	for _, p := range touched {
		s.changed(p)
	}
}

// Close saves what is still owed and stops the writer.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.done) })
	<-s.closed
	return nil
}

func (s *Store) changedLocked() {
	s.dirty = true
	select {
	case s.kick <- struct{}{}:
	default:
	}
}

func (s *Store) changed(preset string) {
	if s.cfg.OnChange != nil {
		s.cfg.OnChange(preset)
	}
}

// writer saves the standings behind the changes, one save at a time; a
// change made during a save is saved after it.
func (s *Store) writer() {
	defer close(s.closed)
	for {
		select {
		case <-s.kick:
			s.flush()
		case <-s.done:
			s.flush()
			return
		}
	}
}

func (s *Store) flush() {
	s.mu.Lock()
	if !s.dirty {
		s.mu.Unlock()
		return
	}
	s.dirty = false
	snap := file{Version: 1, Standings: make(map[string]map[string]Standing, len(s.data))}
	for p, m := range s.data {
		snap.Standings[p] = maps.Clone(m)
	}
	s.mu.Unlock()
	if err := s.save(snap); err != nil {
		s.log.Warn("relations.save_failed", "path", s.cfg.Path, "err", err.Error())
	}
}

// writeFile is the real save: never over a file that could not be read.
func (s *Store) writeFile(f file) error {
	if _, _, err := s.jf.Writable(); err != nil {
		return err
	}
	return s.jf.Save(f)
}

// cut keeps the first n characters of s.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n])
}

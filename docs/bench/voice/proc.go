package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The process tree and its CPU ticks, read from /proc.

// windowTree is the pet window process of core and all its descendants
// (its WebKit processes).
func windowTree(core int) []int {
	var out []int
	for _, c := range children(core) {
		cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", c))
		if strings.Contains(string(cmdline), "window\x00") {
			out = append(out, tree(c)...)
		}
	}
	return out
}

func tree(pid int) []int {
	out := []int{pid}
	for _, c := range children(pid) {
		out = append(out, tree(c)...)
	}
	return out
}

func children(pid int) []int {
	var out []int
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/children", pid))
	for _, t := range tasks {
		b, _ := os.ReadFile(t)
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// stat returns fields 14.. of /proc/pid/stat (utime, stime, cutime, cstime).
func stat(pid int) []int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return []int{0, 0, 0, 0}
	}
	s := string(b)
	fs := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	out := make([]int, 4)
	for i := range out {
		out[i], _ = strconv.Atoi(fs[11+i])
	}
	return out
}

func ticks(pid int) int      { s := stat(pid); return s[0] + s[1] }
func childTicks(pid int) int { s := stat(pid); return s[2] + s[3] }

func sumTicks(pids []int) int {
	n := 0
	for _, p := range pids {
		n += ticks(p)
	}
	return n
}

func sh(name string, args ...string) string {
	b, _ := exec.Command(name, args...).Output()
	return string(b)
}

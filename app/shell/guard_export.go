//go:build linux && cgo && desktop

package shell

/*
#include <stdint.h>
*/
import "C"

import "runtime/cgo"

func guardOf(h C.uintptr_t) *guard { return cgo.Handle(h).Value().(*guard) }

//export yuiNavigationAllowed
func yuiNavigationAllowed(h C.uintptr_t, uri *C.char, newWindow C.int) C.int {
	if guardOf(h).navigation(C.GoString(uri), newWindow != 0) {
		return 1
	}
	return 0
}

//export yuiMessageAllowed
func yuiMessageAllowed(h C.uintptr_t, page, msg *C.char) C.int {
	if guardOf(h).message(C.GoString(page), C.GoString(msg)) {
		return 1
	}
	return 0
}

//export yuiGuardInstalled
func yuiGuardInstalled(h C.uintptr_t, views, gated C.int) {
	guardOf(h).installed(int(views), int(gated))
}

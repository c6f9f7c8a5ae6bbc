//go:build linux && cgo && desktop

package shell

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>

extern void yuiWindowMapped(void);

static gboolean yui_mapped(GtkWidget *w, GdkEvent *e, gpointer data) {
	yuiWindowMapped();
	return FALSE;
}

// Reports the first toplevel's map-event (at once if it is mapped already).
static gboolean yui_install_mapped(gpointer data) {
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l != NULL; l = l->next) {
		GtkWidget *w = GTK_WIDGET(l->data);
		if (gtk_widget_get_mapped(w)) {
			yuiWindowMapped();
		} else {
			g_signal_connect(w, "map-event", G_CALLBACK(yui_mapped), NULL);
		}
	}
	g_list_free(tops);
	return G_SOURCE_REMOVE;
}

static void yui_schedule_mapped(void) {
	g_idle_add(yui_install_mapped, NULL);
}
*/
import "C"

import "sync"

var mapped struct {
	sync.Mutex
	fn func()
}

//export yuiWindowMapped
func yuiWindowMapped() {
	mapped.Lock()
	f := mapped.fn
	mapped.Unlock()
	if f != nil {
		f()
	}
}

// onMapped calls f when the process's window is mapped (possibly more
// than once: a hidden window mapped again; callers log the first). Safe
// from any goroutine: the hook is installed on the GTK main loop.
func onMapped(f func()) {
	mapped.Lock()
	mapped.fn = f
	mapped.Unlock()
	C.yui_schedule_mapped()
}

//go:build linux && cgo && desktop

package shell

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>

typedef struct { int x, y; } yui_pos;

// Moves this process's toplevel windows to (x, y) in root-window pixels.
// Wails' WindowSetPosition adds the origin of the monitor GDK finds at the
// window; gtk_window_move takes absolute coordinates, as the core speaks.
static gboolean yui_move(gpointer data) {
	yui_pos *p = data;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l != NULL; l = l->next) {
		GtkWindow *w = GTK_WINDOW(l->data);
		if (gtk_window_get_window_type(w) != GTK_WINDOW_TOPLEVEL) continue;
		gtk_window_move(w, p->x, p->y);
	}
	g_list_free(tops);
	g_free(p);
	return G_SOURCE_REMOVE;
}

// low queues the move below the default idle priority, so a move asked
// for in OnStartup runs after Wails' own Center() (queued by its Run at the
// default idle priority once the window is shown); a drag's moves use the
// default, like Wails' own.
static void yui_schedule_move(int x, int y, int low) {
	yui_pos *p = g_new(yui_pos, 1);
	p->x = x;
	p->y = y;
	g_idle_add_full(low ? G_PRIORITY_LOW : G_PRIORITY_DEFAULT_IDLE, yui_move, p, NULL);
}
*/
import "C"

import "context"

// moveTo puts the window's top-left corner at the absolute screen point
// (x, y). Safe from any goroutine: the move is queued on the GTK main
// loop (after Wails' start-up centring).
func (w *window) moveTo(_ context.Context, x, y int) { C.yui_schedule_move(C.int(x), C.int(y), 1) }

// dragTo is moveTo for a drag's many small moves.
func (w *window) dragTo(_ context.Context, x, y int) { C.yui_schedule_move(C.int(x), C.int(y), 0) }

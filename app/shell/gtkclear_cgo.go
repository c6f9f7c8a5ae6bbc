//go:build linux && cgo && desktop

package shell

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>

// Wails v2 makes a translucent window app-paintable without a draw handler,
// so nothing clears the window before the web view paints: with an RGBA
// visual, moved or hidden content leaves ghosts behind. This handler runs
// before the default one and clears the redrawn area to transparent.
static gboolean yui_clear_draw(GtkWidget *w, cairo_t *cr, gpointer data) {
	cairo_save(cr);
	cairo_set_source_rgba(cr, 0, 0, 0, 0);
	cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
	cairo_paint(cr);
	cairo_restore(cr);
	return FALSE;
}

static gboolean yui_install_clear(gpointer data) {
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l != NULL; l = l->next) {
		GtkWidget *w = GTK_WIDGET(l->data);
		if (g_object_get_data(G_OBJECT(w), "yui-clear") != NULL) continue;
		if (!gtk_widget_get_app_paintable(w)) continue;
		g_object_set_data(G_OBJECT(w), "yui-clear", (gpointer)1);
		g_signal_connect(w, "draw", G_CALLBACK(yui_clear_draw), NULL);
		gtk_widget_queue_draw(w);
	}
	g_list_free(tops);
	return G_SOURCE_REMOVE;
}

static void yui_schedule_clear(void) {
	g_idle_add(yui_install_clear, NULL);
}
*/
import "C"

// installClearOnDraw makes the translucent window clear what it redraws
// (see the C comment). Safe from any goroutine: the work is queued on the
// GTK main loop.
func installClearOnDraw() { C.yui_schedule_clear() }

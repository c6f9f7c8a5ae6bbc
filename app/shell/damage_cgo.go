//go:build linux && cgo && desktop

package shell

/*
#cgo pkg-config: webkit2gtk-4.1 gtk+-3.0
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

static void yui_damage_find(GtkWidget *w, gpointer data) {
	GList **out = data;
	if (WEBKIT_IS_WEB_VIEW(w)) {
		*out = g_list_prepend(*out, w);
		return;
	}
	if (GTK_IS_CONTAINER(w)) {
		gtk_container_forall(GTK_CONTAINER(w), yui_damage_find, data);
	}
}

// Turns on WebKit's feature `id` in every web view's settings; returns
// how many views it was turned on in (0: no such feature or no view).
static int yui_enable_feature(const char *id) {
	WebKitFeatureList *all = webkit_settings_get_all_features();
	WebKitFeature *feature = NULL;
	for (gsize i = 0; i < webkit_feature_list_get_length(all); i++) {
		WebKitFeature *f = webkit_feature_list_get(all, i);
		if (g_strcmp0(webkit_feature_get_identifier(f), id) == 0) {
			feature = f;
			break;
		}
	}
	int n = 0;
	if (feature != NULL) {
		GList *views = NULL;
		GList *tops = gtk_window_list_toplevels();
		for (GList *l = tops; l != NULL; l = l->next) {
			yui_damage_find(GTK_WIDGET(l->data), &views);
		}
		g_list_free(tops);
		for (GList *l = views; l != NULL; l = l->next) {
			WebKitSettings *s = webkit_web_view_get_settings(WEBKIT_WEB_VIEW(l->data));
			webkit_settings_set_feature_enabled(s, feature, TRUE);
			n++;
		}
		g_list_free(views);
	}
	webkit_feature_list_unref(all);
	return n;
}

static gboolean yui_damage_idle(gpointer data) {
	yui_enable_feature("UseDamagingInformationForCompositing");
	return G_SOURCE_REMOVE;
}

static void yui_schedule_damage(void) {
	g_idle_add_full(G_PRIORITY_HIGH, yui_damage_idle, NULL, NULL);
}
*/
import "C"

import "os"

// useDamageCompositing has WebKit composite only what changed (its
// UseDamagingInformationForCompositing feature, off by default in
// WebKitGTK 2.50): under software GL every frame otherwise composites the
// whole window, which was most of what a mouth change or a motion frame
// cost (docs/performance.md). YUI_WEBVIEW_DAMAGE=off leaves WebKit's
// default. Queued on the GTK main loop before the page loads.
func useDamageCompositing() {
	if os.Getenv("YUI_WEBVIEW_DAMAGE") == "off" {
		return
	}
	C.yui_schedule_damage()
}

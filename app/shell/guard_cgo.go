//go:build linux && cgo && desktop

package shell

/*
#cgo linux pkg-config: gtk+-3.0
#cgo !webkit2_41 pkg-config: webkit2gtk-4.0
#cgo webkit2_41 pkg-config: webkit2gtk-4.1
#cgo CFLAGS: -Wno-deprecated-declarations
#include <stdint.h>
#include <gtk/gtk.h>
#include <webkit2/webkit2.h>

// Go's side of the guard (guard_export.go); h is the guard's cgo.Handle.
extern int yuiNavigationAllowed(uintptr_t h, char *uri, int newWindow);
extern int yuiMessageAllowed(uintptr_t h, char *page, char *msg);
extern void yuiGuardInstalled(uintptr_t h, int views, int gated);

// One web view's guard state.
typedef struct {
	uintptr_t h;
	WebKitWebView *view;
	gulong wails;     // Wails' script message handler, kept blocked
	gboolean reentry; // inside our own re-emission
} yui_gate;

// decide-policy: navigations (main frame and subframes) and new-window
// requests are put to Go; a refused one is ignored. Responses keep the
// default.
static gboolean yui_decide_policy(WebKitWebView *v, WebKitPolicyDecision *d, WebKitPolicyDecisionType type, gpointer data) {
	yui_gate *g = data;
	if (type != WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION && type != WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION) {
		return FALSE;
	}
	WebKitNavigationAction *a = webkit_navigation_policy_decision_get_navigation_action(WEBKIT_NAVIGATION_POLICY_DECISION(d));
	WebKitURIRequest *r = a ? webkit_navigation_action_get_request(a) : NULL;
	const char *uri = r ? webkit_uri_request_get_uri(r) : NULL;
	if (yuiNavigationAllowed(g->h, (char *)(uri ? uri : ""), type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION)) {
		return FALSE; // the default handler uses it
	}
	webkit_policy_decision_ignore(d);
	return TRUE;
}

// The page's messages to the Wails runtime ("external"): Wails' own
// handler is blocked, and this one passes a message on to it (by emitting
// the signal again with Wails' handler unblocked) only when Go allows it.
static void yui_gate_message(WebKitUserContentManager *m, WebKitJavascriptResult *res, gpointer data) {
	yui_gate *g = data;
	if (g->reentry) {
		return;
	}
	const char *page = webkit_web_view_get_uri(g->view);
	JSCValue *v = webkit_javascript_result_get_js_value(res);
	char *msg = jsc_value_to_string(v);
	int ok = yuiMessageAllowed(g->h, (char *)(page ? page : ""), msg ? msg : "");
	g_free(msg);
	if (!ok) {
		return;
	}
	g->reentry = TRUE;
	g_signal_handler_unblock(m, g->wails);
	g_signal_emit_by_name(m, "script-message-received::external", res);
	g_signal_handler_block(m, g->wails);
	g->reentry = FALSE;
}

static void yui_find_views(GtkWidget *w, gpointer data) {
	GList **out = data;
	if (WEBKIT_IS_WEB_VIEW(w)) {
		*out = g_list_prepend(*out, w);
		return;
	}
	if (GTK_IS_CONTAINER(w)) {
		gtk_container_forall(GTK_CONTAINER(w), yui_find_views, data);
	}
}

static int yui_guard_view(WebKitWebView *view, uintptr_t h) {
	if (g_object_get_data(G_OBJECT(view), "yui-guard") != NULL) {
		return -1;
	}
	yui_gate *g = g_new0(yui_gate, 1);
	g->h = h;
	g->view = view;
	g_object_set_data_full(G_OBJECT(view), "yui-guard", g, g_free);
	g_signal_connect(view, "decide-policy", G_CALLBACK(yui_decide_policy), g);

	WebKitUserContentManager *m = webkit_web_view_get_user_content_manager(view);
	guint sig = g_signal_lookup("script-message-received", WEBKIT_TYPE_USER_CONTENT_MANAGER);
	GQuark detail = g_quark_from_string("external");
	g->wails = g_signal_handler_find(m, G_SIGNAL_MATCH_ID | G_SIGNAL_MATCH_DETAIL, sig, detail, NULL, NULL, NULL);
	if (g->wails == 0) {
		return 0;
	}
	g_signal_handler_block(m, g->wails);
	g_signal_connect(m, "script-message-received::external", G_CALLBACK(yui_gate_message), g);
	return 1;
}

static int yui_guard_tries;

// Runs first thing in the GTK main loop (queued at high priority before
// it starts), before any input event is dispatched: no drop can reach the
// window before its guard is in place.
static gboolean yui_install_guard(gpointer data) {
	uintptr_t h = (uintptr_t)data;
	GList *views = NULL;
	GList *tops = gtk_window_list_toplevels();
	for (GList *l = tops; l != NULL; l = l->next) {
		yui_find_views(GTK_WIDGET(l->data), &views);
	}
	g_list_free(tops);
	int n = 0, gated = 0;
	for (GList *l = views; l != NULL; l = l->next) {
		int r = yui_guard_view(WEBKIT_WEB_VIEW(l->data), h);
		if (r >= 0) {
			n++;
			gated += r;
		}
	}
	g_list_free(views);
	if (n == 0 && ++yui_guard_tries < 500) {
		// The web view does not exist yet (it always does by the time the
		// main loop runs; this is only a safety net).
		g_timeout_add(10, yui_install_guard, data);
		return G_SOURCE_REMOVE;
	}
	yuiGuardInstalled(h, n, gated);
	return G_SOURCE_REMOVE;
}

static void yui_schedule_guard(uintptr_t h) {
	g_idle_add_full(G_PRIORITY_HIGH, yui_install_guard, (gpointer)h, NULL);
}
*/
import "C"

import "runtime/cgo"

// installGuard puts g in charge of the window's web view (see guard and
// docs/security.md, "Windows and pages"). Call it before wails.Run: the
// work is queued to run first in the GTK main loop. g lives as long as the
// process.
func installGuard(g *guard) {
	C.yui_schedule_guard(C.uintptr_t(cgo.NewHandle(g)))
}

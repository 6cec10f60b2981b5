//! The wrapper that draws panels below the answer one frame later.

use leptos::prelude::*;

/// Panels below the answer, drawn in the frame after the first one, so the numbers and the charts
/// show sooner.
#[component]
pub fn Later(children: ChildrenFn) -> impl IntoView {
    let shown = RwSignal::new(false);
    request_animation_frame(move || shown.set(true));
    move || shown.get().then(|| children())
}

//! Questions to the page's worker that follow the page: SGLang's figures, a plan, a refusal's
//! fixes, the GPU table. Each is asked again when its request changes (or the language, which the
//! worker writes its texts in); the latest answer stays until a newer one arrives (shown dimmed
//! meanwhile, rather than blinking out on every keystroke), and an answer to a request that is no
//! longer current is dropped.

use super::{browser, State};
use kvbudget_core::handoff::{read_scenario, Answer as Reply, Request};
use kvbudget_core::i18n::Lang;
use kvbudget_core::scenario::PageScenario;
use leptos::prelude::*;

/// A request with the language its texts are asked in.
type Key = (Lang, Request);

/// The latest answer: the request it answers (with the language) and the answer, or why the
/// worker could not answer.
pub type Answer = Option<(Key, Result<Reply, String>)>;

/// A question that follows the page.
#[derive(Clone, Copy)]
pub struct Asked {
    /// The request now (with the language), if there is one.
    key: Memo<Option<Key>>,
    /// The latest answer.
    got: RwSignal<Answer>,
}

impl Asked {
    /// Asks the worker `request()` (`None`: nothing to ask) in the page's language whenever it
    /// changes.
    pub fn new(lang: Memo<Lang>, request: Box<dyn Fn() -> Option<Request> + Send + Sync>) -> Self {
        let key = Memo::new(move |_| Some((lang.get(), request()?)));
        let got = RwSignal::new(None);
        Effect::new_sync(move |_| {
            let Some(k) = key.get() else { return };
            if got.with_untracked(|g: &Answer| g.as_ref().is_some_and(|g| g.0 == k)) {
                return;
            }
            let request = k.1.clone();
            leptos::task::spawn_local(async move {
                let answer = browser::ask_worker(request).await;
                if key.try_get_untracked().flatten().as_ref() == Some(&k) {
                    got.set(Some((k, answer)));
                }
            });
        });
        Asked { key, got }
    }

    /// The latest answer (`None` before the first, or when nothing is asked) and whether it
    /// answers the request now.
    pub fn latest(&self) -> Option<(Result<Reply, String>, bool)> {
        let k = self.key.get()?;
        self.got
            .with(|g| g.as_ref().map(|(gk, a)| (a.clone(), *gk == k)))
    }

    /// Whether the latest answer answers the request now (read without copying it).
    pub fn current(&self) -> bool {
        let Some(k) = self.key.get() else {
            return false;
        };
        self.got
            .with(|g| g.as_ref().is_some_and(|(gk, _)| *gk == k))
    }

    /// Forgets the latest answer (it answers a question that no longer makes sense: another log
    /// was read).
    pub fn forget(&self) {
        self.got.set(None);
    }

    /// A panel drawn from the worker's answer (`draw`) as HTML text: the current one, an older
    /// one dimmed while the worker computes the current one, or why it could not.
    pub fn html(&self, draw: impl Fn(&Reply) -> String) -> String {
        match self.latest() {
            Some((Ok(a), true)) => draw(&a),
            Some((Ok(a), false)) => crate::page::dimmed(&draw(&a)),
            Some((Err(e), _)) => format!("<p>{}</p>", crate::page::html_escape(&e)),
            None => String::new(),
        }
    }

    /// The answer to the request now (`None` while the worker computes it).
    pub fn now(&self) -> Option<Result<Reply, String>> {
        self.latest()
            .filter(|(_, current)| *current)
            .map(|(a, _)| a)
    }
}

/// A button of a panel the worker answered (`apply`: the request for the scenario shown and the
/// scenario as edited, as queries): the change for the scenario shown, which the panel states,
/// applied by the worker to the scenario as edited (they differ while an edit is refused). Why
/// the worker could not goes to the results' status line.
pub fn apply_button(
    state: State,
    copied: RwSignal<String>,
    apply_to: impl FnOnce(String, String) -> Request,
) {
    use kvbudget_core::query::encode;
    let scenario = state.scenario;
    let request = state.shown.with_untracked(|x| {
        let x = x.as_ref()?;
        Some(apply_to(encode(&x.s), scenario.with_untracked(encode)))
    });
    if let Some(request) = request {
        apply(scenario, request, |_| {}, move |e| copied.set(e));
    }
}

/// Asks the worker once for a scenario (`request`: a panel's button, a log's adopt or align)
/// and sets it, unless the scenario changed meanwhile; `applied` gets the notes that came with
/// it, `failed` why the worker could not.
pub fn apply(
    scenario: RwSignal<PageScenario>,
    request: Request,
    applied: impl FnOnce(Vec<String>) + 'static,
    failed: impl FnOnce(String) + 'static,
) {
    let before = scenario.with_untracked(kvbudget_core::query::encode);
    leptos::task::spawn_local(async move {
        match browser::ask_worker(request).await.and_then(read_scenario) {
            Ok(_) if scenario.with_untracked(kvbudget_core::query::encode) != before => {}
            Ok((mut s, notes)) => {
                s.more |= scenario.with_untracked(|old| crate::page::changes_more(old, &s));
                scenario.set(s);
                applied(notes);
            }
            Err(e) => failed(e),
        }
    });
}

//! Questions to the page's worker that follow the page: SGLang's figures, a plan, a refusal's
//! fixes, the GPU table. Each is asked again when its request changes (or the language, which the
//! worker writes its texts in); the latest answer stays until a newer one arrives (shown dimmed
//! meanwhile, rather than blinking out on every keystroke), and an answer to a request that is no
//! longer current is dropped.

use super::parts::Ui;
use super::{browser, State};
use kvbudget_core::handoff::{read_scenario, read_text};
use kvbudget_core::i18n::Lang;
use kvbudget_core::scenario::PageScenario;
use leptos::prelude::*;

/// The latest answer: the request it answers (with the language) and the text, or why the worker
/// could not answer.
pub type Answer = Option<(String, Result<String, String>)>;

/// A question that follows the page.
#[derive(Clone, Copy)]
pub struct Asked {
    /// The request now (with the language on its first line), if there is one.
    key: Memo<Option<String>>,
    /// The latest answer.
    got: RwSignal<Answer>,
}

impl Asked {
    /// Asks the worker `request()` (`None`: nothing to ask) in the page's language whenever it
    /// changes.
    pub fn new(lang: Memo<Lang>, request: Box<dyn Fn() -> Option<String> + Send + Sync>) -> Self {
        let key = Memo::new(move |_| {
            let l = lang.get().key();
            request().map(|r| format!("{l}\n{r}"))
        });
        let got = RwSignal::new(None);
        Effect::new_sync(move |_| {
            let Some(k) = key.get() else { return };
            if got.with_untracked(|g: &Answer| g.as_ref().is_some_and(|g| g.0 == k)) {
                return;
            }
            let request = k.split_once('\n').map_or("", |x| x.1).to_string();
            leptos::task::spawn_local(async move {
                let answer = browser::ask_worker(request)
                    .await
                    .and_then(|a| read_text(&a));
                if key.try_get_untracked().flatten().as_deref() == Some(k.as_str()) {
                    got.set(Some((k, answer)));
                }
            });
        });
        Asked { key, got }
    }

    /// The latest answer (`None` before the first, or when nothing is asked) and whether it
    /// answers the request now.
    pub fn latest(&self) -> Option<(Result<String, String>, bool)> {
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

    /// A panel the worker writes as HTML text: the current one, an older one dimmed while the
    /// worker computes the current one, or why it could not.
    pub fn html(&self) -> String {
        match self.latest() {
            Some((Ok(html), true)) => html,
            Some((Ok(html), false)) => crate::page::dimmed(&html),
            Some((Err(e), _)) => format!("<p>{}</p>", crate::page::html_escape(&e)),
            None => String::new(),
        }
    }

    /// The answer to the request now (`None` while the worker computes it).
    pub fn now(&self) -> Option<Result<String, String>> {
        self.latest()
            .filter(|(_, current)| *current)
            .map(|(a, _)| a)
    }
}

/// A button of a panel the worker wrote (`job`: `plan_apply`, `fix_apply`; `which`: the button):
/// the change for the scenario shown, which the panel states, applied by the worker to the
/// scenario as edited (they differ while an edit is refused). Why the worker could not goes to
/// the results' status line.
pub fn apply_button(state: State, ui: Ui, job: &str, which: &str) {
    let scenario = state.scenario;
    let request = state.shown.with_untracked(|x| {
        let x = x.as_ref()?;
        Some(scenario.with_untracked(|t| crate::page::apply_request(job, which, &x.s, t)))
    });
    if let Some(request) = request {
        apply(scenario, request, |_| {}, move |e| ui.copied.set(e));
    }
}

/// Asks the worker once for a scenario (`request`: a panel's `apply_request`, a log's
/// `log_adopt`) and sets it, unless the scenario changed meanwhile; `applied` gets the notes
/// that came with it, `failed` why the worker could not.
pub fn apply(
    scenario: RwSignal<PageScenario>,
    request: String,
    applied: impl FnOnce(Vec<String>) + 'static,
    failed: impl FnOnce(String) + 'static,
) {
    let before = scenario.with_untracked(kvbudget_core::query::encode);
    leptos::task::spawn_local(async move {
        match browser::ask_worker(request)
            .await
            .and_then(|a| read_scenario(&a))
        {
            Ok(_) if scenario.with_untracked(kvbudget_core::query::encode) != before => {}
            Ok((s, notes)) => {
                scenario.set(s);
                applied(notes);
            }
            Err(e) => failed(e),
        }
    });
}

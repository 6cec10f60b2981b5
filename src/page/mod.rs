//! The page's decisions as pure functions, compiled for every target and tested natively
//! (`tests/page.rs`, `tests/worker_jobs.rs`): the page's markup, what each input shows and how
//! typed text is committed, what the pickers offer and select, the texts the panels show, the
//! three charts as one table, the embed snippet, and the panels drawn from the worker's answers.
//! `app/` only wires these to the DOM.

mod embed;
mod engines;
mod figures;
mod flags;
mod form;
mod frame;
mod imports;
mod inputs;
mod log_html;
pub mod patch;
mod prerender;
mod results;
mod shell;
mod tables_html;

pub use embed::*;
pub use engines::*;
pub use figures::*;
pub use flags::*;
pub use form::*;
pub use frame::*;
pub use imports::*;
pub use inputs::*;
pub use log_html::*;
pub use prerender::*;
pub use results::*;
pub use shell::*;
pub use tables_html::*;

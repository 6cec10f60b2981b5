//! The interface's two languages, English and Simplified Chinese.
//!
//! Every text the page shows is a constant (or, when it carries figures, a function) in `en/` and,
//! under the same name and type, in `zh/`. [`t!`](crate::t) picks the current language's, so a
//! text missing in one language, or with another signature, does not compile. Numbers are
//! formatted the same way in both (`units::thousands`). The command line never sets the language
//! and stays English. The engines' own lines (vLLM's and SGLang's startup lines and errors) are
//! not here: they print English and the page shows them verbatim, with the explanation beside them
//! in the reader's language.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt::Display;

pub mod en;
pub mod fmt;
pub mod zh;

/// A language of the interface.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    /// English (the default, and the command line's).
    #[default]
    En,
    /// Simplified Chinese.
    ZhCn,
}

impl Lang {
    /// Both, in the order the switch offers them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhCn];

    /// The `lang=` value and the `<html lang>` attribute.
    pub fn key(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhCn => "zh-CN",
        }
    }

    /// The language's name in itself, for the switch.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::ZhCn => "简体中文",
        }
    }

    /// Reads a `lang=` value (case-insensitive; `zh` and `zh-Hans` are Simplified Chinese too).
    pub fn parse(s: &str) -> Option<Lang> {
        match s.trim().to_ascii_lowercase().as_str() {
            "en" | "en-us" | "en-gb" => Some(Lang::En),
            "zh-cn" | "zh" | "zh-hans" | "zh-hans-cn" => Some(Lang::ZhCn),
            _ => None,
        }
    }

    /// The language for a reader whose browser prefers `tags` (most preferred first): the first
    /// Chinese or English tag decides; Chinese of any region reads the Simplified page, as the
    /// page has no other Chinese.
    pub fn for_browser<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        for tag in tags {
            let t = tag.trim().to_ascii_lowercase();
            if t == "zh" || t.starts_with("zh-") {
                return Lang::ZhCn;
            }
            if t == "en" || t.starts_with("en-") {
                return Lang::En;
            }
        }
        Lang::En
    }
}

thread_local! {
    static LANG: Cell<Lang> = const { Cell::new(Lang::En) };
    /// The Chinese texts by their English twin, once loaded.
    static ZH: RefCell<Option<HashMap<&'static str, &'static str>>> = const { RefCell::new(None) };
}

/// The language texts are produced in now (English until the Chinese texts are loaded).
pub fn lang() -> Lang {
    LANG.with(Cell::get)
}

/// Sets the language texts are produced in (the page, when the reader chooses or arrives).
pub fn set_lang(l: Lang) {
    LANG.with(|c| c.set(l));
}

/// Whether the Chinese texts are loaded.
pub fn zh_loaded() -> bool {
    ZH.with(|z| z.borrow().is_some())
}

/// Loads the Chinese texts as (English, Chinese) pairs (the page gets them from its worker, so
/// the first load carries English only).
pub fn load_zh(pairs: impl IntoIterator<Item = (String, String)>) {
    let table = pairs
        .into_iter()
        .map(|(en, zh)| -> (&'static str, &'static str) {
            (
                Box::leak(en.into_boxed_str()),
                Box::leak(zh.into_boxed_str()),
            )
        })
        .collect();
    ZH.with(|z| *z.borrow_mut() = Some(table));
}

/// Every text as (English, Chinese), paired by name. (The worker sends these to the page; native
/// code and the worker load them with [`load_builtin_zh`].)
pub fn zh_pairs() -> Vec<(&'static str, &'static str)> {
    let en: HashMap<&str, &str> = en::all().into_iter().collect();
    zh::all()
        .into_iter()
        .filter_map(|(name, zh)| Some((*en.get(name)?, zh)))
        .collect()
}

/// Loads the Chinese texts compiled into this binary.
pub fn load_builtin_zh() {
    load_zh(
        zh_pairs()
            .into_iter()
            .map(|(e, z)| (e.to_string(), z.to_string())),
    );
}

/// The current language's version of the English text `en`.
pub fn tr(en: &'static str) -> &'static str {
    if lang() == Lang::En {
        return en;
    }
    ZH.with(|z| z.borrow().as_ref().and_then(|t| t.get(en).copied()))
        .unwrap_or(en)
}

/// A template with its `{0}`, `{1}`, … filled in.
pub fn fill(template: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut rest = template;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        match after
            .find('}')
            .and_then(|j| Some((after[..j].parse::<usize>().ok()?, j)))
        {
            Some((n, j)) if n < args.len() => {
                use std::fmt::Write;
                let _ = write!(out, "{}", args[n]);
                rest = &after[j + 1..];
            }
            _ => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// What a template may be filled with: text and integers. Not floats: they are written with
/// [`crate::floatfmt`] (or Python's `repr`) first, so each figure says how many decimals it shows
/// (a float given to `tf!` does not compile).
pub trait Arg: Display {}

impl Arg for str {}
impl Arg for String {}
impl Arg for char {}
impl Arg for u8 {}
impl Arg for u16 {}
impl Arg for u32 {}
impl Arg for u64 {}
impl Arg for u128 {}
impl Arg for usize {}
impl Arg for i32 {}
impl Arg for i64 {}
impl Arg for i128 {}
impl Arg for std::borrow::Cow<'_, str> {}
impl Arg for crate::units::Bytes {}
impl<T: Arg + ?Sized> Arg for &T {}

/// `x` as a template's argument (see [`Arg`]).
pub fn arg<T: Arg>(x: &T) -> &dyn Display {
    x
}

/// A template text filled in: `tf!(NAME, a, b, …)` is [`fill`] of `t!(NAME)` with `a`, `b`, …
/// as `{0}`, `{1}`, ….
#[macro_export]
macro_rules! tf {
    ($k:ident $(, $a:expr)* $(,)?) => {
        $crate::i18n::fill($crate::t!($k), &[$($crate::i18n::arg(&$a)),*])
    };
}

/// Declares a language's files of texts (the same list in `en/` and `zh/`): each module's texts
/// re-exported, and `all()`, every (name, text) of the language.
#[doc(hidden)]
#[macro_export]
macro_rules! text_modules {
    ($($m:ident),* $(,)?) => {
        $(mod $m; pub use $m::*;)*
        /// Every text: (name, text).
        pub fn all() -> Vec<(&'static str, &'static str)> {
            let mut v = Vec::new();
            $(v.extend_from_slice($m::ALL);)*
            v
        }
    };
}

/// Declares a file's texts: a constant each, and `ALL`, every (name, text) of the file.
#[doc(hidden)]
#[macro_export]
macro_rules! texts {
    ($($name:ident: $text:literal,)*) => {
        $(
            #[allow(missing_docs)]
            pub const $name: &str = $text;
        )*
        /// Every text of this file: (name, text).
        pub(super) const ALL: &[(&str, &str)] = &[$((stringify!($name), $name)),*];
    };
}

/// The current language's text: `t!(NAME)` for a text, `t!(name(args…))` for a text that carries
/// figures ([`fmt`]). Naming a text the Chinese side lacks does not compile; the Chinese texts
/// themselves are not linked where they are not used (the page loads them from its worker).
#[macro_export]
macro_rules! t {
    ($f:ident ( $($a:expr),* $(,)? )) => {
        $crate::i18n::fmt::$f($($a),*)
    };
    ($k:ident) => {{
        const _: &str = $crate::i18n::zh::$k;
        $crate::i18n::tr($crate::i18n::en::$k)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lang_values_and_the_browser_default() {
        assert_eq!(Lang::parse("zh-CN"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse(" EN "), Some(Lang::En));
        assert_eq!(Lang::parse("fr"), None);
        for l in Lang::ALL {
            assert_eq!(Lang::parse(l.key()), Some(l));
        }
        assert_eq!(Lang::for_browser(["zh-TW", "en"]), Lang::ZhCn);
        assert_eq!(Lang::for_browser(["de-DE", "en-US", "zh-CN"]), Lang::En);
        assert_eq!(Lang::for_browser(["fr"]), Lang::En);
    }

    #[test]
    fn t_follows_the_language_of_this_thread() {
        load_builtin_zh();
        set_lang(Lang::ZhCn);
        let zh = crate::t!(LANGUAGE);
        let filled = crate::t!(rs_tokens("8,192"));
        set_lang(Lang::En);
        assert_eq!((crate::t!(LANGUAGE), zh), ("Language", "语言"));
        assert_eq!(filled, "8,192 个 token");
        assert_eq!(crate::t!(rs_tokens("8,192")), "8,192 tokens");
    }

    #[test]
    fn templates_fill_by_position() {
        assert_eq!(fill("{1} of {0}", &[&"a", &2]), "2 of a");
        // A brace that is not a placeholder stays.
        assert_eq!(fill("{x} {5} {", &[&1]), "{x} {5} {");
    }

    #[test]
    fn both_languages_name_the_same_texts_with_the_same_placeholders() {
        let en: HashMap<&str, &str> = en::all().into_iter().collect();
        let zh: HashMap<&str, &str> = zh::all().into_iter().collect();
        assert_eq!(en.len(), en::all().len(), "a name twice in en/");
        assert_eq!(zh.len(), zh::all().len(), "a name twice in zh/");
        let mut names: Vec<_> = en.keys().collect();
        names.sort();
        let mut zh_names: Vec<_> = zh.keys().collect();
        zh_names.sort();
        assert_eq!(names, zh_names);
        let holes = |s: &str| {
            let mut v: Vec<String> = (0..10)
                .map(|i| format!("{{{i}}}"))
                .filter(|p| s.contains(p.as_str()))
                .collect();
            v.sort();
            v
        };
        for (name, e) in &en {
            assert_eq!(holes(e), holes(zh[name]), "{name}: placeholders differ");
        }
    }

    #[test]
    fn one_english_text_has_one_chinese_text() {
        // The page looks a Chinese text up by its English twin, so two names with the same
        // English must agree in Chinese.
        let mut seen: HashMap<&str, (&str, &str)> = HashMap::new();
        let zh: HashMap<&str, &str> = zh::all().into_iter().collect();
        for (name, e) in en::all() {
            if let Some((other, z)) = seen.insert(e, (name, zh[name])) {
                assert_eq!(
                    z, zh[name],
                    "{name} and {other} share {e:?} but not their Chinese"
                );
            }
        }
    }
}

//! The interface's two languages, English and Simplified Chinese.
//!
//! Every text the page shows is a constant (or, when it carries figures, a function) in `en/` and,
//! under the same name and type, in `zh/`. [`t!`](crate::t) picks the current language's, so a
//! text missing in one language, or with another signature, does not compile. Numbers are
//! formatted the same way in both (`units::thousands`). The command line never sets the language
//! and stays English. The engines' own lines (vLLM's and SGLang's startup lines and errors) are
//! not here: they print English and the page shows them verbatim, with the explanation beside them
//! in the reader's language.

use std::cell::Cell;

pub mod en;
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
}

/// The language texts are produced in now.
pub fn lang() -> Lang {
    LANG.with(Cell::get)
}

/// Sets the language texts are produced in (the page, when the reader chooses or arrives).
pub fn set_lang(l: Lang) {
    LANG.with(|c| c.set(l));
}

/// The current language's text: `t!(NAME)` for a constant, `t!(name(args…))` for a text that
/// carries figures.
#[macro_export]
macro_rules! t {
    ($f:ident ( $($a:expr),* $(,)? )) => {
        match $crate::i18n::lang() {
            $crate::i18n::Lang::En => $crate::i18n::en::$f($($a),*),
            $crate::i18n::Lang::ZhCn => $crate::i18n::zh::$f($($a),*),
        }
    };
    ($k:ident) => {
        match $crate::i18n::lang() {
            $crate::i18n::Lang::En => $crate::i18n::en::$k,
            $crate::i18n::Lang::ZhCn => $crate::i18n::zh::$k,
        }
    };
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
        set_lang(Lang::ZhCn);
        let zh = crate::t!(LANGUAGE);
        set_lang(Lang::En);
        assert_eq!((crate::t!(LANGUAGE), zh), ("Language", "语言"));
    }
}

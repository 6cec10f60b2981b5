//! The URL parameters of the view rather than the arithmetic: `embed`, `theme`, `more`, `lang`, and the
//! scheme's version `v`.

use super::Param;
use crate::error::KvError;
use crate::i18n::Lang;
use crate::scenario::{Embed, Theme};

/// The view's parameters, in query order (after the scenario's).
pub const VIEW_PARAMS: &[Param] = &[
    Param {
        key: "embed",
        read: |s| s.embed.key().map(String::from),
        write: Some(|s, v, _| {
            s.embed = Embed::parse(v).ok_or_else(|| KvError::Invalid {
                field: "embed",
                message: crate::tf!(
                    ERR_NOT_ONE_OF,
                    crate::error::quoted(v.trim(), 24),
                    "1, memory, concurrency, roofline"
                ),
            })?;
            Ok(())
        }),
        default: |_| crate::t!(D_FULL_PAGE).into(),
    },
    Param {
        key: "theme",
        read: |s| s.theme.key().map(String::from),
        write: Some(|s, v, _| {
            s.theme = Theme::parse(v).ok_or_else(|| KvError::Invalid {
                field: "theme",
                message: crate::tf!(
                    ERR_NOT_ONE_OF,
                    crate::error::quoted(v.trim(), 24),
                    "light, dark, auto"
                ),
            })?;
            Ok(())
        }),
        default: |_| crate::t!(D_AUTO_SCHEME).into(),
    },
    Param {
        key: "more",
        read: |s| s.more.then(|| "1".to_string()),
        write: Some(|s, v, _| {
            s.more = crate::fields::parse_flag("more", v)?;
            Ok(())
        }),
        default: |_| crate::t!(D_SETTINGS_FOLDED).into(),
    },
    Param {
        key: "lang",
        read: |s| s.lang.map(|l| l.key().to_string()),
        write: Some(|s, v, _| {
            s.lang = Some(Lang::parse(v).ok_or_else(|| KvError::Invalid {
                field: "lang",
                message: crate::tf!(
                    ERR_NOT_ONE_OF,
                    crate::error::quoted(v.trim(), 24),
                    "en, zh-CN"
                ),
            })?);
            Ok(())
        }),
        default: |_| crate::t!(D_BROWSER_LANG).into(),
    },
    // The scheme's version, reserved for links from later releases: accepted and ignored.
    Param {
        key: "v",
        read: |_| None,
        write: None,
        default: |_| String::new(),
    },
];

"""Choose a judge by name: "offline" (core.verify.offline, the default) or "model" (an
entailment call per sentence through the workspace's LLM; core.verify.model), and say which."""
from __future__ import annotations

from core.errors import UserError

JUDGES = ("offline", "model")


def policy_for(store):
    """The offline judge's rules as the store's workspace sets them (its `verify` setting over
    core/verify/rules.json); the defaults for a store without a workspace folder."""
    from core.settings import SettingsError, load_settings
    from core.verify.rules import Policy
    workspace = getattr(store, "workspace", None)
    if workspace is None:
        return Policy.default()
    try:
        return Policy.default().changed(load_settings(workspace, env={}).verify)
    except (TypeError, ValueError, AttributeError) as exc:
        raise SettingsError(f"the workspace's 'verify' setting: {exc}") from exc


def make_judge(name: str, llm=None, policy=None):
    """A callable judge(sentence, units, record_texts, names=...) -> Verdict (policy: the offline
    judge's rules, core.verify.rules.Policy; default rules.json)."""
    if name in (None, "", "offline"):
        from core.verify.offline import judge as offline_judge
        if policy is None:
            return offline_judge

        def judge(sentence, units, record_texts=(), names=None):
            return offline_judge(sentence, units, record_texts, names=names, policy=policy)
        return judge
    if name == "model":
        if llm is None:
            raise UserError("the model judge needs an LLM: set SENSEMAKER_LLM_BASE_URL (or the "
                            "workspace's LLM settings), or use the offline judge")
        from core.verify.model import judge as model_judge

        def judge(sentence, units, record_texts=(), names=None):
            return model_judge(llm, sentence, units, record_texts, names=names)
        return judge
    raise UserError(f"unknown judge {name!r}: choose one of {', '.join(JUDGES)}")

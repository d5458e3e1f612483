"""Choose a judge by name: "offline" (core.verify.offline, the default) or "model" (an
entailment call per sentence through the workspace's LLM; core.verify.model), and say which."""
from __future__ import annotations

from core.errors import UserError

JUDGES = ("offline", "model")


def make_judge(name: str, llm=None):
    """A callable judge(sentence, units, record_texts, names=...) -> Verdict."""
    if name in (None, "", "offline"):
        from core.verify.offline import judge
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

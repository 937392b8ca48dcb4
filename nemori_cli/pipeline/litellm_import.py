"""Import litellm once, quietly, only when a call needs it (it takes seconds to import)."""

from __future__ import annotations

import os
import threading
from typing import Any

_import_lock = threading.Lock()
_litellm: Any = None


def load_litellm() -> Any:
    """Import litellm once, quietly: local cost map, no callbacks, no debug prints."""
    global _litellm
    if _litellm is None:
        with _import_lock:
            if _litellm is None:
                os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
                import logging

                import litellm

                litellm.suppress_debug_info = True
                litellm.turn_off_message_logging = True
                litellm.disable_hf_tokenizer_download = True
                litellm.drop_params = True
                litellm.callbacks = []
                litellm.success_callback = []
                litellm.failure_callback = []
                for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
                    logging.getLogger(name).setLevel(logging.CRITICAL)
                _litellm = litellm
    return _litellm

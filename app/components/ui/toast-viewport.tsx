import { useEffect } from "react";
import { toast as showToast, Toaster } from "sonner";

/** The sonner viewport plus one toast; a default export so it can be lazy-loaded. */
export default function ToastViewport({ id, type, text }: { id: string; type: "success" | "error"; text: string }) {
  useEffect(() => {
    const show = type === "error" ? showToast.error : showToast.success;
    show(text, { id });
  }, [id, type, text]);
  return <Toaster position="top-center" richColors closeButton toastOptions={{ className: "text-base" }} />;
}

export { showToast };

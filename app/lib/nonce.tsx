import { createContext, useContext } from "react";

/** The request's CSP nonce, provided during server rendering (empty in the browser, where it is not needed). */
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);

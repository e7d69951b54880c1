import type { Strings } from './english';

/** Arabic (Modern Standard), right to left: a chunk of its own, fetched only for an Arabic-speaking shopper (i18n.ts). */
const ar: Strings = {
  lang: 'ar',
  dir: 'rtl',
  openChat: 'فتح الدردشة',
  closeChat: 'إغلاق الدردشة',
  title: 'مساعد التسوق',
  greeting: 'مرحبًا! كيف يمكنني مساعدتك اليوم؟',
  offline: 'يتعذر الوصول إلى المساعد حاليًا. ستُرسَل الرسائل التي تكتبها عند عودته.',
  conversation: 'المحادثة',
  inputLabel: 'الرسالة',
  placeholder: 'اطرح سؤالًا…',
  send: 'إرسال',
  pending: 'جارٍ الإرسال…',
  reconnecting: 'جارٍ إعادة الاتصال…',
  typing: 'المساعد يكتب',
  busy: 'جارٍ البحث…',
  failed: 'انقطعت الإجابة.',
  refused: 'لم تُرسَل.',
  limited: 'رسائل كثيرة جدًا في وقت قصير. أعد إرسالها بعد قليل.',
  sendAgain: 'إعادة الإرسال',
  retry: 'إعادة المحاولة',
  unread: 'إجابات جديدة',
  yes: 'نعم',
  no: 'لا',
  choices: 'إجابات مقترحة',
  starters: 'أسئلة مقترحة',
  dismiss: 'إخفاء',
};

export default ar;
